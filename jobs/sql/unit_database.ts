import { checkUnitDatabase, isOnUnitDatabase, type UnitOfWork } from "@kit/kernel/internal";
import type { JobSqlDriver, SqlQuery } from "./job_sql_driver.ts";

/**
 * The query a store writes in a unit of work with: `query` itself (the driver's, on the unit's
 * transaction) when the unit was opened on the driver's own client, or when that pair of clients
 * was found on one database before; else `query` behind a check, run once before its first
 * statement: the database of the unit's transaction and that of the driver's client (one
 * statement on each, at once) must be the same (`checkUnitDatabase` of `@kit/kernel/internal`,
 * which `PostgresOutbox` and `OutboxJobStore` run too). When they differ, every statement of the
 * query rejects with an error naming the store and both databases, and none is sent: the write
 * never reaches the unit's transaction, and the unit rolls back when the error ends it.
 *
 * @param driver The store's driver (its `client`, its names for the error).
 * @param unit The unit of work the store writes in.
 * @param query The driver's query on the unit's transaction (`driver.inUnit(unit)`).
 * @returns The query to write in the unit with.
 */
export function queryInUnit(driver: JobSqlDriver, unit: UnitOfWork, query: SqlQuery): SqlQuery {
  if (isOnUnitDatabase(driver, unit)) return query;
  let checked: Promise<void> | undefined;
  return async (statement) => {
    await (checked ??= checkUnitDatabase(driver, unit, query));
    return await query(statement);
  };
}
