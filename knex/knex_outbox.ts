import { consoleLogger, type Logger } from "@kit/kernel";
import { SqlOutbox, type SqlOutboxOptions, SqlProcessedEvents } from "@kit/jobs/sql";
import type { Knex } from "knex";
import { knexDriver } from "./knex_driver.ts";

/**
 * The kernel's outbox on Knex (`pg`), with the statements of `PostgresOutbox`: an integration
 * event and its deliveries are written in the use case's Knex transaction (the unit of work of
 * {@linkcode KnexTransactions}), so a command's writes, its events and its jobs (`KnexJobStore`)
 * commit together or not at all. Relays claim deliveries with `FOR UPDATE SKIP LOCKED`, mark
 * them done in the handler's transaction (a savepoint of it per delivery when a batch runs in
 * one), and listen for appends on a `pg` connection of their own. Tables:
 * `createKernelTables(knex, schema)` (or `migrateKernel`).
 *
 * @example
 * ```ts ignore
 * const db = knex({ client: "pg", connection: url });
 * eventsPlugin({ outbox: new KnexOutbox(db), processedEvents: new KnexProcessedEvents(db) });
 * ```
 */
export class KnexOutbox extends SqlOutbox {
  /**
   * An outbox on this instance: `schema` names the tables' (default: the search path), `listen:
   * false` makes relays poll, `logger` is where a lost listening connection is logged.
   */
  constructor(knex: Knex, options: SqlOutboxOptions & { logger?: Logger } = {}) {
    super(knexDriver(knex, options.logger ?? consoleLogger(), "KnexOutbox"), options);
  }
}

/**
 * Processed events on Knex: the (handler, event) pair is inserted behind the primary key of
 * `kit_processed_events` in the consumer's Knex transaction, so `processOnce` runs a
 * redelivered event's work once.
 */
export class KnexProcessedEvents extends SqlProcessedEvents {
  /** Processed events on this instance; `schema` names the table's (default: the search path). */
  constructor(knex: Knex, options: { schema?: string } = {}) {
    super(knexDriver(knex, consoleLogger(), "KnexProcessedEvents"), options);
  }
}
