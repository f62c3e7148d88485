import { InMemoryTransactions } from "@kit/kernel";
import { recordUnitClient, type UnitOfWork } from "@kit/kernel/internal";
import type { SqlQuery } from "./job_sql_driver.ts";

const callbacks = new InMemoryTransactions();

/**
 * Runs `work` in a unit of work on a driver's transaction, for the transaction managers of the
 * ORM packages (`DrizzleTransactions`, `KnexTransactions`): the unit's `transaction` is the
 * driver's, its commit callbacks run after COMMIT and never after ROLLBACK, and `lock` takes a
 * transaction-scoped advisory lock (so it holds across processes).
 *
 * @param begin Runs its argument in a new transaction of the driver; commits when it returns.
 * @param queryOf The query of a transaction, for the advisory locks.
 * @param work The unit's work.
 * @param client The client `begin` opens transactions on, recorded for the unit
 *   (`recordUnitClient`): a store on this client (its driver's `client`) writes in the unit
 *   unchecked, a store on another one only once found on the unit's database. Without it, every
 *   store that writes in a unit checks it once.
 * @returns What the work answers, once committed and the callbacks run.
 */
export function runSqlUnitOfWork<T, Transaction>(
  begin: (inTransaction: (transaction: Transaction) => Promise<T>) => Promise<T>,
  queryOf: (transaction: Transaction) => SqlQuery,
  work: (unit: UnitOfWork) => Promise<T>,
  client?: object,
): Promise<T> {
  // The in-memory manager keeps the callbacks and runs them once `begin` has committed.
  return callbacks.run((outer) =>
    begin((transaction) => {
      if (client !== undefined) recordUnitClient(transaction as object, client);
      const locked = new Set<string>();
      const query = queryOf(transaction);
      return work({
        id: outer.id,
        transaction,
        whenCommitted: (callback) => outer.whenCommitted(callback),
        lock: async (key) => {
          if (typeof key !== "string" || key.length === 0) {
            throw new TypeError(
              `A lock is named by a non-empty string, got ${JSON.stringify(key)}`,
            );
          }
          if (locked.has(key)) return;
          await query({
            name: "lockUnit",
            text: "select pg_advisory_xact_lock(hashtextextended($1, 0))",
            params: [key],
          });
          locked.add(key);
        },
      });
    })
  );
}
