import { consoleLogger } from "@kit/kernel";
import { SqlJobStore, type SqlJobStoreOptions } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexDriver } from "./knex_driver.ts";

/**
 * Jobs on PostgreSQL through Knex (`pg`), in the table made by `createJobTable(knex, schema)`. An
 * enqueue writes in the caller's Knex transaction, the one of the unit of work
 * ({@linkcode KnexTransactions}): the job exists if and only if the use case commits. A claim
 * takes due jobs with `FOR UPDATE SKIP LOCKED` in one statement of its own; a committed insert
 * notifies `kit_jobs`, and the store listens on a `pg` connection of its own, outside the pool,
 * so idle workers start at once.
 *
 * @example
 * ```ts ignore
 * const db = knex({ client: "pg", connection: url });
 * await createJobTable(db, "scheduling");
 * const store = new KnexJobStore(db, { schema: "scheduling" });
 * ```
 */
export class KnexJobStore extends SqlJobStore {
  /** A store on this instance. */
  constructor(knex: Knex, options: SqlJobStoreOptions = {}) {
    super(knexDriver(knex, options.logger ?? consoleLogger(), "KnexJobStore"), options);
  }
}
