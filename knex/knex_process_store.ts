import { consoleLogger } from "@kit/kernel";
import { SqlProcessStore, type SqlProcessStoreOptions } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexDriver } from "./knex_driver.ts";

/**
 * The process managers' instances on Knex (`pg`), with the statements and tables of
 * `PostgresProcessStore`: a transition loads its instance and saves its state, its handled
 * message and its parked events in the use case's Knex transaction (the unit of work of
 * {@linkcode KnexTransactions}), so the instance's state commits with the command's writes, its
 * events (`KnexOutbox`) and its deadline jobs (`KnexJobStore`), or not at all. A unit of another
 * transaction manager is refused. Tables, in the context's schema: `createProcessTables(knex,
 * schema)` (or `migrateProcesses`).
 *
 * @example
 * ```ts ignore
 * const db = knex({ client: "pg", connection: url });
 * const store = new KnexProcessStore(db, { schema: "scheduling" });
 * composeApplication({ providers: [{ provide: ProcessStore, provider: { useValue: store } }] });
 * ```
 */
export class KnexProcessStore extends SqlProcessStore {
  /** A store on this instance; `schema` names the tables' (default: the search path). */
  constructor(knex: Knex, options: SqlProcessStoreOptions = {}) {
    super(knexDriver(knex, consoleLogger(), "KnexProcessStore"), options);
  }
}
