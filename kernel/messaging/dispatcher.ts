// deno-lint-ignore-file no-explicit-any
import type { ExecutionContext } from "../actor/execution_context.ts";
import { ForbiddenError } from "../errors/access_errors.ts";
import { isRefusal } from "../errors/concept_error.ts";
import { defaultTenant } from "../tenancy/tenancy.ts";
import { uuidv7 } from "../ids/id.ts";
import type { TransactionManager } from "../unit_of_work/unit_of_work.ts";
import { currentScope, runInScopeWith, type WorkScope } from "../unit_of_work/work_scope.ts";
import type { AccessPolicy, AccessRequest } from "./access_policy.ts";
import type { CommandBus, QueryBus } from "./buses.ts";
import type { HandlerContext, MessageHandler } from "./handles.ts";
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

  /**
   * Runs a command or a query. No async function on the way of a message whose policy answers
   * synchronously, and no closure but a new unit's work: the bus runs on every request, and what
   * it allocates there is paid in young-generation collections (issue #33). Always answers a
   * promise: what throws is a rejection.
   */
  execute(message: Message<any>): Promise<any> {
    let route: MessageRoute | undefined;
    let scope: WorkScope | undefined;
    let execution: ExecutionContext;
    try {
      const type = (message as unknown as { constructor?: MessageClass } | undefined)?.constructor;
      route = type === undefined ? undefined : this.#routes.get(type);
      if (route === undefined) {
        throw new Error(`No handler for ${kindOf(message)} '${type?.name ?? String(message)}'`);
      }
      scope = currentScope();
      execution = scope?.execution ?? directExecution(message);
    } catch (error) {
      return Promise.reject(error);
    }
    let ran: Promise<any>;
    try {
      if (route.requirement !== undefined) {
        // A policy that answers synchronously is not awaited (no promise made for it).
        const authorized = this.#authorize(message, route.requirement, execution);
        if (authorized !== undefined) {
          const granted = route;
          return authorized.then(() => this.#dispatch(message, granted, scope, execution))
            .then(undefined, this.#rethrow);
        }
      }
      ran = this.#dispatch(message, route, scope, execution);
    } catch (error) {
      return Promise.reject(this.#translate(error));
    }
    // Errors translated as the store says; without a translation, the rejection as it is.
    return this.#transactions.translateError === undefined
      ? ran
      : ran.then(undefined, this.#rethrow);
  }

  /** The message's handler run: in a new unit for a command outside one. May throw. */
  #dispatch(
    message: Message,
    route: MessageRoute,
    scope: WorkScope | undefined,
    execution: ExecutionContext,
  ): Promise<any> {
    if (message instanceof Command && scope?.unitOfWork === undefined) {
      return this.#inNewUnit(message, route, execution, 0);
    }
    if (scope === undefined) {
      // The scope is the handler's context too: the same keys.
      const own: WorkScope = { execution };
      return promised(runInScopeWith(own, handle, route, message, own));
    }
    const context = scope.unitOfWork ? { execution, unitOfWork: scope.unitOfWork } : { execution };
    return promised(route.handler().handle(message, context));
  }

  /** A command in a unit of its own, sent again on a conflict as many times as it declares. */
  #inNewUnit(
    message: Message,
    route: MessageRoute,
    execution: ExecutionContext,
    attempt: number,
  ): Promise<any> {
    let ran: Promise<any>;
    try {
      ran = promised(this.#transactions.run((unitOfWork) => {
        // The scope is the handler's context too: the same keys.
        const scope: WorkScope = { execution, unitOfWork };
        return runInScopeWith(scope, handle, route, message, scope);
      }));
    } catch (error) {
      ran = Promise.reject(error);
    }
    // Nothing to translate and no retry: the rejection goes as it is.
    if ((route.retries ?? 0) === 0 && this.#transactions.translateError === undefined) return ran;
    return this.#retried(ran, message, route, execution, attempt);
  }

  /**
   * The unit's answer, its error translated and the command sent again on a conflict while it
   * has retries left. Its own method: a closure in `#inNewUnit` would make every unit's context
   * carry what only this one needs.
   */
  #retried(
    ran: Promise<any>,
    message: Message,
    route: MessageRoute,
    execution: ExecutionContext,
    attempt: number,
  ): Promise<any> {
    return ran.then(undefined, (error) => {
      const translated = this.#translate(error);
      if (attempt >= (route.retries ?? 0) || !isRefusal(translated, "CONCURRENT_UPDATE")) {
        throw translated;
      }
      return this.#inNewUnit(message, route, execution, attempt + 1);
    });
  }

  /** Throws the error translated (a rejection handler made once). */
  readonly #rethrow = (error: unknown): never => {
    throw this.#translate(error);
  };

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
    // The keys a spread would give, in the same order; one literal each (a key added to a
    // literal would grow it a second store).
    const actor = message.actor;
    const permission = requirement.permission;
    const request: Omit<AccessRequest, "granted"> = resource
      ? { actor, permission, message, execution, resource }
      : { actor, permission, message, execution };
    const allowed = this.#policy.decide(request);
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

/** Runs the route's handler on the message (a function of its own: no closure per message). */
function handle(route: MessageRoute, message: Message, context: HandlerContext): Promise<any> {
  return route.handler().handle(message, context);
}

/** The value as a promise: itself when it is one (as `await` would take it). */
function promised<T>(value: T | Promise<T>): Promise<T> {
  return value instanceof Promise ? value : Promise.resolve(value);
}

function kindOf(message: unknown): string {
  return message instanceof Command ? "command" : "query";
}
