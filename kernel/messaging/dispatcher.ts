// deno-lint-ignore-file no-explicit-any
import type { ExecutionContext } from "../actor/execution_context.ts";
import { ForbiddenError } from "../errors/access_errors.ts";
import { uuidv7 } from "../ids/id.ts";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { currentScope, runInScope } from "../unit_of_work/work_scope.ts";
import type { AccessPolicy } from "./access_policy.ts";
import type { CommandBus, QueryBus } from "./buses.ts";
import type { MessageHandler } from "./handles.ts";
import { Command, type Message, type MessageClass } from "./message.ts";
import type { Requirement } from "./requires.ts";

/** One message class, compiled once: its handler and its requirement. */
export interface MessageRoute {
  /** The handler, built on first use. */
  readonly handler: () => MessageHandler;
  /** The permission the message requires, if any. */
  readonly requirement: Requirement | undefined;
}

/**
 * The bus behind `CommandBus` and `QueryBus`: one lookup per message, the permission, the unit
 * of work, the handler.
 */
export class Dispatcher implements CommandBus, QueryBus {
  readonly #routes: ReadonlyMap<MessageClass, MessageRoute>;
  readonly #policy: AccessPolicy;
  readonly #transactions: TransactionManager;

  /** Builds the bus from compiled routes. */
  constructor(
    routes: ReadonlyMap<MessageClass, MessageRoute>,
    policy: AccessPolicy,
    transactions: TransactionManager,
  ) {
    this.#routes = routes;
    this.#policy = policy;
    this.#transactions = transactions;
  }

  /** Runs a command or a query. */
  async execute(message: Message<any>): Promise<any> {
    const type = (message as unknown as { constructor?: MessageClass } | undefined)?.constructor;
    const route = type === undefined ? undefined : this.#routes.get(type);
    if (route === undefined) {
      throw new Error(`No handler for ${kindOf(message)} '${type?.name ?? String(message)}'`);
    }
    if (route.requirement !== undefined) await this.#authorize(message, route.requirement);

    const scope = currentScope();
    const execution: ExecutionContext = scope?.execution ?? {
      origin: "direct",
      actor: message.actor,
      correlationId: uuidv7(),
    };
    if (message instanceof Command && scope?.unitOfWork === undefined) {
      return this.#transactions.run((unitOfWork) =>
        runInScope(
          { execution, unitOfWork },
          () => route.handler().handle(message, { execution, unitOfWork }),
        )
      );
    }
    const context = scope?.unitOfWork ? { execution, unitOfWork: scope.unitOfWork } : { execution };
    if (scope === undefined) {
      return runInScope({ execution }, () => route.handler().handle(message, context));
    }
    return route.handler().handle(message, context);
  }

  async #authorize(message: Message, requirement: Requirement): Promise<void> {
    const resource = requirement.resource?.(message);
    const allowed = await this.#policy.decide({
      actor: message.actor,
      permission: requirement.permission,
      message,
      ...(resource ? { resource } : {}),
    });
    if (allowed !== true) {
      const on = resource ? ` on ${resource.type} '${resource.id}'` : "";
      throw new ForbiddenError(
        `Permission '${requirement.permission.name}' is not granted to actor '${message.actor.id}'${on}`,
        { permission: requirement.permission.name, ...(resource ? { resource } : {}) },
      );
    }
  }
}

function kindOf(message: unknown): string {
  return message instanceof Command ? "command" : "query";
}
