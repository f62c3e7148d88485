import { consoleLogger } from "@kit/kernel";
import { SqlJobStore, type SqlJobStoreOptions } from "@kit/jobs/sql";
import { drizzleDriver } from "./drizzle_driver.ts";
import type { DrizzleDatabase } from "./drizzle_transactions.ts";

/**
 * Jobs on PostgreSQL through Drizzle (its postgres.js or node-postgres driver), in the table of
 * `jobsTable(schema)`. An enqueue writes in the caller's Drizzle transaction, the one of the unit
 * of work ({@linkcode DrizzleTransactions}): the job exists if and only if the use case commits. A
 * claim takes due jobs with `FOR UPDATE SKIP LOCKED` in one statement of its own; a committed
 * insert notifies `kit_jobs`, and the store listens on the client Drizzle was given (postgres.js
 * `listen`, or a `pg.Pool` connection of its own), so idle workers start at once.
 *
 * @example
 * ```ts ignore
 * const db = drizzle(postgres(url));
 * const transactions = new DrizzleTransactions(db);
 * const store = new DrizzleJobStore(db, { schema: "scheduling" });
 * ```
 */
export class DrizzleJobStore extends SqlJobStore {
  /** A store on this database. */
  constructor(db: DrizzleDatabase, options: SqlJobStoreOptions = {}) {
    super(drizzleDriver(db, options.logger ?? consoleLogger(), "DrizzleJobStore"), options);
  }
}
