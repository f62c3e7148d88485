import { uuidv7 } from "../ids/id.ts";
import { CommitCallbacks } from "./commit_callbacks.ts";
import { KeyedLocks } from "./keyed_locks.ts";
import type { TransactionManager, UnitOfWork } from "./unit_of_work.ts";

/**
 * Units of work without a database: nothing to roll back but the callbacks, which run only when
 * the work returns. Named locks ({@linkcode UnitOfWork.lock}) hold within this process.
 */
export class InMemoryTransactions implements TransactionManager {
  readonly #locks = new KeyedLocks();

  /**
   * Runs the work; runs its commit callbacks when it returns, drops them when it throws. One
   * promise chain, no async function (a unit is opened for every command).
   */
  run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    // Made when first needed: most units take no lock and register no callback.
    let callbacks: CommitCallbacks | undefined;
    let held: Map<string, () => void> | undefined;
    const unit: UnitOfWork = {
      id: uuidv7(),
      transaction: undefined,
      whenCommitted: (callback) => (callbacks ??= new CommitCallbacks()).add(callback),
      lock: (key) => this.#locks.acquire(key, held ??= new Map()),
    };
    let ran: Promise<T>;
    try {
      ran = work(unit);
    } catch (error) {
      release(held);
      return Promise.reject(error);
    }
    return (ran instanceof Promise ? ran : Promise.resolve(ran)).then((result) => {
      release(held);
      if (callbacks === undefined || callbacks.empty) return result;
      return callbacks.runAll().then(() => result);
    }, (error) => {
      release(held);
      throw error;
    });
  }
}

/** Releases the locks a unit holds, if it took any. */
function release(held: Map<string, () => void> | undefined): void {
  if (held !== undefined) { for (const release of held.values()) release(); }
}
