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

  /** Runs the work; runs its commit callbacks when it returns, drops them when it throws. */
  async run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    const callbacks = new CommitCallbacks();
    // Made on the first lock: most units take none.
    let held: Map<string, () => void> | undefined;
    const unit: UnitOfWork = {
      id: uuidv7(),
      transaction: undefined,
      whenCommitted: (callback) => callbacks.add(callback),
      lock: (key) => this.#locks.acquire(key, held ??= new Map()),
    };
    let result: T;
    try {
      result = await work(unit);
    } finally {
      if (held !== undefined) { for (const release of held.values()) release(); }
    }
    if (!callbacks.empty) await callbacks.runAll();
    return result;
  }
}
