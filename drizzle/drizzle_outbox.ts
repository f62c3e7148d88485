import { consoleLogger, type Logger } from "@kit/kernel";
import { SqlOutbox, type SqlOutboxOptions, SqlProcessedEvents } from "@kit/jobs/sql";
import { drizzleDriver } from "./drizzle_driver.ts";
import type { DrizzleDatabase } from "./drizzle_transactions.ts";

/**
 * The kernel's outbox on Drizzle (its postgres.js or node-postgres driver), with the statements
 * of `PostgresOutbox`: an integration event and its deliveries are written in the use case's
 * Drizzle transaction (the unit of work of {@linkcode DrizzleTransactions}), so a command's
 * writes, its events and its jobs (`DrizzleJobStore`) commit together or not at all. Relays
 * claim deliveries with `FOR UPDATE SKIP LOCKED`, mark them done in the handler's transaction (a
 * savepoint of it per delivery when a batch runs in one), and listen for appends on the client
 * Drizzle was given. Tables: `createKernelTables(db, schema)` (or `migrateKernel`).
 *
 * @example
 * ```ts ignore
 * const db = drizzle(postgres(url));
 * eventsPlugin({ outbox: new DrizzleOutbox(db), processedEvents: new DrizzleProcessedEvents(db) });
 * ```
 */
export class DrizzleOutbox extends SqlOutbox {
  /**
   * An outbox on this database: `schema` names the tables' (default: the search path), `listen:
   * false` makes relays poll, `logger` is where a lost listening connection is logged.
   */
  constructor(db: DrizzleDatabase, options: SqlOutboxOptions & { logger?: Logger } = {}) {
    super(drizzleDriver(db, options.logger ?? consoleLogger(), "DrizzleOutbox"), options);
  }
}

/**
 * Processed events on Drizzle: the (handler, event) pair is inserted behind the primary key of
 * `kit_processed_events` in the consumer's Drizzle transaction, so `processOnce` runs a
 * redelivered event's work once.
 */
export class DrizzleProcessedEvents extends SqlProcessedEvents {
  /** Processed events on this database; `schema` names the table's (default: the search path). */
  constructor(db: DrizzleDatabase, options: { schema?: string } = {}) {
    super(drizzleDriver(db, consoleLogger(), "DrizzleProcessedEvents"), options);
  }
}
