import type { Actor } from "../actor/actor.ts";

/** A request to the application, sent by an actor, answering `Result`. */
export abstract class Message<Result = unknown> {
  /** Carries the result type only (boxed, so that a result that may be `undefined` keeps it). */
  declare readonly __result?: readonly [Result];
  /** Who sends the message; permissions are decided for this actor. */
  readonly actor: Actor;

  /** Every message takes its actor first. */
  constructor(actor: Actor) {
    if (actor === null || typeof actor !== "object" || typeof actor.id !== "string") {
      throw new TypeError(`${new.target.name} takes an actor first, got ${String(actor)}`);
    }
    this.actor = actor;
  }
}

/** A command anyone may send: changes state, in its own unit of work. */
export abstract class Command<Result = void> extends Message<Result> {
  /** Distinguishes commands from queries in types. */
  declare readonly __kind?: "command";
}

/** A query anyone may send: reads state. */
export abstract class Query<Result> extends Message<Result> {
  /** Distinguishes queries from commands in types. */
  declare readonly __kind?: "query";
}

/**
 * A command guarded by a permission: its class must declare one, decorated `@Requires(...)` or,
 * in the builder style, with `builder.requires(...)` in its module file; else the application
 * refuses to compose.
 *
 * @example
 * ```ts ignore
 * @Requires(permissions["appointment.cancel"], {
 *   resource: (c: CancelAppointment) => ({ type: "appointment", id: c.appointmentId }),
 * })
 * class CancelAppointment extends AuthorizedCommand<void> {
 *   constructor(actor: Actor, readonly appointmentId: string, readonly reason: string) {
 *     super(actor);
 *   }
 * }
 * ```
 */
export abstract class AuthorizedCommand<Result = void> extends Command<Result> {}

/**
 * A query guarded by a permission: its class must declare one (`@Requires(...)`, or
 * `builder.requires(...)` in its module file).
 */
export abstract class AuthorizedQuery<Result> extends Query<Result> {}

/** The result type of a message. */
export type ResultOf<M> = M extends Message<infer R> ? R : never;

/** A message class. */
// deno-lint-ignore no-explicit-any
export type MessageClass<M extends Message = Message> = abstract new (...args: any[]) => M;
