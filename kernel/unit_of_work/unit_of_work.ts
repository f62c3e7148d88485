import { type Token, token } from "../composition/token.ts";

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
}

/** Opens units of work: in memory, or on a database (`@kit/kernel/postgres`). */
export interface TransactionManager {
  /** Runs the work in a new unit; commits when it returns, rolls back when it throws. */
  run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T>;
}

/** The token of the transaction manager. */
export const TransactionManager: Token<TransactionManager> = token<TransactionManager>(
  "TransactionManager",
);
