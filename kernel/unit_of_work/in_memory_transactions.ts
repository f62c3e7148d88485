import { uuidv7 } from "../ids/id.ts";
import { CommitCallbacks } from "./commit_callbacks.ts";
import type { TransactionManager, UnitOfWork } from "./unit_of_work.ts";

/**
 * Units of work without a database: nothing to roll back but the callbacks, which run only when
 * the work returns.
 */
export class InMemoryTransactions implements TransactionManager {
  /** Runs the work; runs its commit callbacks when it returns, drops them when it throws. */
  async run<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    const callbacks = new CommitCallbacks();
    const unit: UnitOfWork = {
      id: uuidv7(),
      transaction: undefined,
      whenCommitted: (callback) => callbacks.add(callback),
    };
    const result = await work(unit);
    await callbacks.runAll();
    return result;
  }
}
