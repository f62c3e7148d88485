// deno-lint-ignore-file no-explicit-any
import type { ExecutionContext } from "../actor/execution_context.ts";
import { ForbiddenError } from "../errors/access_errors.ts";
import { isRefusal } from "../errors/concept_error.ts";
import { defaultTenant } from "../tenancy/tenancy.ts";
import { uuidv7 } from "../ids/id.ts";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { currentScope, runInScope } from "../unit_of_work/work_scope.ts";
import type { AccessPolicy, AccessRequest } from "./access_policy.ts";
import type { CommandBus, QueryBus } from "./buses.ts";
import type { MessageHandler } from "./handles.ts";
import { Command, type Message, type MessageClass } from "./message.ts";
import type { Requirement, Resource } from "./requires.ts";

/** One message class, compiled once: its handler and its requirement. */
export interface MessageRoute {
  /** The handler, built on first use. */
  readonly handler: () => MessageHandler;
  /** The permission the message requires, if any. */
  readonly requirement: Requirement | undefined;
  /** How many times a command is sent again after a `CONCURRENT_UPDATE` (0: never). */
  readonly retries?: number;
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
    const scope = currentScope();
    const execution: ExecutionContext = scope?.execution ?? directExecution(message);
    try {
      if (route.requirement !== undefined) {
        // A policy that answers synchronously is not awaited (no promise made for it).
        const authorized = this.#authorize(message, route.requirement, execution);
        if (authorized !== undefined) await authorized;
      }
      if (message instanceof Command && scope?.unitOfWork === undefined) {
        return await this.#inNewUnit(message, route, execution);
      }
      const context = scope?.unitOfWork
        ? { execution, unitOfWork: scope.unitOfWork }
        : { execution };
      if (scope === undefined) {
        return await runInScope({ execution }, () => route.handler().handle(message, context));
      }
      return await route.handler().handle(message, context);
    } catch (error) {
      throw this.#translate(error);
    }
  }

  /** A command in a unit of its own, sent again on a conflict as many times as it declares. */
  async #inNewUnit(message: Message, route: MessageRoute, execution: ExecutionContext) {
    for (let attempt = 0;; attempt++) {
      try {
        return await this.#transactions.run((unitOfWork) =>
          runInScope(
            { execution, unitOfWork },
            () => route.handler().handle(message, { execution, unitOfWork }),
          )
        );
      } catch (error) {
        const translated = this.#translate(error);
        if (attempt >= (route.retries ?? 0) || !isRefusal(translated, "CONCURRENT_UPDATE")) {
          throw translated;
        }
      }
    }
  }

  #translate(error: unknown): unknown {
    return this.#transactions.translateError?.(error) ?? error;
  }

  /** Throws (or rejects) unless the policy grants the requirement; a promise only when it does. */
  #authorize(
    message: Message,
    requirement: Requirement,
    execution: ExecutionContext,
  ): Promise<void> | undefined {
    const resource = requirement.resource?.(message);
    // The keys a spread would give, in the same order, assigned in place.
    const request: { -readonly [K in keyof AccessRequest]?: AccessRequest[K] } = {
      actor: message.actor,
      permission: requirement.permission,
      message,
      execution,
    };
    if (resource) request.resource = resource;
    const allowed = this.#policy.decide(request as Omit<AccessRequest, "granted">);
    if (allowed !== true && allowed !== false && typeof (allowed as any)?.then === "function") {
      return Promise.resolve(allowed).then((settled) =>
        refuseUnless(settled, message, requirement, resource)
      );
    }
    refuseUnless(allowed, message, requirement, resource);
    return undefined;
  }
}

/** Throws the refusal of a requirement the policy did not grant (`allowed` not `true`). */
function refuseUnless(
  allowed: unknown,
  message: Message,
  requirement: Requirement,
  resource: Resource | undefined,
): void {
  if (allowed === true) return;
  const on = resource ? ` on ${resource.type} '${resource.id}'` : "";
  throw new ForbiddenError(
    `Permission '${requirement.permission.name}' is not granted to actor '${message.actor.id}'${on}`,
    { permission: requirement.permission.name, ...(resource ? { resource } : {}) },
  );
}

/**
 * The execution of a message sent outside any work (a script, a test): as its actor, for the
 * actor's only tenant (none when it has several: it must run in a scope that names one).
 */
function directExecution(message: Message): ExecutionContext {
  const tenantId = defaultTenant(message.actor);
  return {
    origin: "direct",
    actor: message.actor,
    correlationId: uuidv7(),
    ...(tenantId === undefined ? {} : { tenantId }),
  };
}

function kindOf(message: unknown): string {
  return message instanceof Command ? "command" : "query";
}
