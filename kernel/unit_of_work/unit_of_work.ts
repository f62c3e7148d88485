import { type Token, token } from "../composition/token.ts";
import { currentUnitOfWork } from "./work_scope.ts";

/**
 * One transaction of work: a command's writes commit together or not at all. Stores that share
 * the transaction write through {@linkcode UnitOfWork.transaction}; the others wait for the commit
 * with {@linkcode UnitOfWork.whenCommitted}.
 */
export interface UnitOfWork {
  /** The id of this unit of work. */
  readonly id: string;
  /** The store's transaction handle (a postgres.js transaction), or `undefined` in memory. */
  readonly transaction: unknown;
  /**
   * Runs the callback after the unit commits, in registration order, and never on rollback. The
   * bus awaits the callbacks before it answers.
   */
  whenCommitted(callback: () => unknown): void;
  /**
   * Takes the named lock until the unit ends (commit or rollback): another unit taking the same
   * name waits. For invariants that span rows, where a version on one aggregate is not enough
   * (a booking and a time off over the same calendar take `calendar:<id>`). On PostgreSQL a
   * transaction-scoped advisory lock, so it holds across processes.
   */
  lock(key: string): Promise<void>;
}

/** Opens units of work: in memory, or on a database (`@kit/kernel/postgres`). */
export interface TransactionManager {
  /** Runs the work in a new unit; commits when it returns, rolls back when it throws. */
  run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * Turns an error of the store that the input caused into a refusal the caller understands
   * (`INVALID_INPUT`, `CONCURRENT_UPDATE`); answers any other error unchanged. The buses apply
   * it to every error a handler throws.
   */
  translateError?(error: unknown): unknown;
}

/** The token of the transaction manager. */
export const TransactionManager: Token<TransactionManager> = token<TransactionManager>(
  "TransactionManager",
);

/**
 * Takes the named lock in the unit of work under way, until it ends (see
 * {@linkcode UnitOfWork.lock}). Throws when no unit of work is open: call it from a command's
 * handler or a repository.
 *
 * @example Serialise every write to one calendar's appointments and time off
 * ```ts ignore
 * await lockFor(`calendar:${calendarId}`);
 * ```
 */
export async function lockFor(key: string): Promise<void> {
  const unit = currentUnitOfWork();
  if (unit === undefined) {
    throw new Error(`lockFor('${key}') needs a unit of work: call it while a command runs`);
  }
  await unit.lock(key);
}
