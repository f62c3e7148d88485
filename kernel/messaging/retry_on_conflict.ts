import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "../declarations/declaration.ts";
import type { MessageClass } from "./message.ts";

/** What `@RetryOnConflict` records on a command class. */
export interface ConflictRetry {
  /** How many times the command is sent again after a `CONCURRENT_UPDATE` conflict. */
  readonly retries: number;
}

/** The declaration kind of `@RetryOnConflict`. */
export const conflictRetries: DeclarationKind<ConflictRetry> = declarationKind<ConflictRetry>(
  "retry-on-conflict",
);

/**
 * Declares that the command bus sends the command again, in a new unit of work, when it fails
 * with a `CONCURRENT_UPDATE` conflict (a stale version, or a transaction the database could not
 * serialise): at most `retries` times (default 3), then the conflict reaches the caller (409).
 * Off unless declared. Only a command that opened its own unit of work is retried: a command sent
 * inside another's unit fails with it, and the outer command is retried if it is declared so.
 * The handler must be safe to run again: it loads what it needs anew, and its effects are in
 * the unit of work (the outbox, the job store), which rolled back.
 *
 * @example
 * ```ts ignore
 * @RetryOnConflict({ retries: 3 })
 * @Requires(permissions["appointment.cancel"])
 * class CancelAppointment extends AuthorizedCommand<{ id: string }> { ... }
 * ```
 */
export function RetryOnConflict(
  options: { retries?: number } = {},
): KitClassDecorator<MessageClass> {
  const retries = options.retries ?? 3;
  if (!Number.isInteger(retries) || retries < 1 || retries > 100) {
    throw new RangeError(
      `@RetryOnConflict() takes retries as a whole number from 1 to 100, got ${retries}`,
    );
  }
  return classDecorator<MessageClass>("RetryOnConflict", (target) => {
    conflictRetries.record(target, { retries });
  });
}
