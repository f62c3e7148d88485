import { consoleLogger } from "@kit/kernel";
import { SqlProcessStore, type SqlProcessStoreOptions } from "@kit/jobs/sql";
import { drizzleDriver } from "./drizzle_driver.ts";
import type { DrizzleDatabase } from "./drizzle_transactions.ts";

/**
 * The process managers' instances on Drizzle (its postgres.js or node-postgres driver), with the
 * statements and tables of `PostgresProcessStore`: a transition loads its instance and saves its
 * state, its handled message and its parked events in the use case's Drizzle transaction (the
 * unit of work of {@linkcode DrizzleTransactions}), so the instance's state commits with the
 * command's writes, its events (`DrizzleOutbox`) and its deadline jobs (`DrizzleJobStore`), or not
 * at all. A unit of another transaction manager is refused. Tables, in the context's schema:
 * `createProcessTables(db, schema)` (or `migrateProcesses`).
 *
 * @example
 * ```ts ignore
 * const db = drizzle(postgres(url));
 * const store = new DrizzleProcessStore(db, { schema: "scheduling" });
 * composeApplication({ providers: [{ provide: ProcessStore, provider: { useValue: store } }] });
 * ```
 */
export class DrizzleProcessStore extends SqlProcessStore {
  /** A store on this database; `schema` names the tables' (default: the search path). */
  constructor(db: DrizzleDatabase, options: SqlProcessStoreOptions = {}) {
    super(drizzleDriver(db, consoleLogger(), "DrizzleProcessStore"), options);
  }
}
