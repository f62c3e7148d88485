import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { JobStore } from "@kit/jobs";
import {
  DrizzleJobStore,
  DrizzleOutbox,
  DrizzleProcessedEvents,
  DrizzleTransactions,
} from "@kit/drizzle";
import type { Database } from "./database.ts";
// drizzle-orm's postgres.js driver imports npm's postgres (to open a client from a URL, which the
// platform does not do): imported here so that Deno resolves that peer of drizzle-orm. The
// platform's client is kit's postgres.js (`postgres`, `@kit/postgres`).
import "postgres-js";

/**
 * The project's ORM: Drizzle over the platform's PostgreSQL client (postgres.js, one pool). The
 * repositories write with `currentDrizzle(db)`, in the unit of work under way; the tables they
 * write are declared in the contexts and listed in `schema.ts`; the migrations are the project's
 * numbered SQL migrations (`migrations.ts`).
 */
export type Orm = PostgresJsDatabase;

/** The ORM's database, and how to release it. */
export interface OpenedOrm {
  readonly db: Orm;
  close(): Promise<void>;
}

/**
 * Drizzle over the platform's client `sql` (its pool, its time-outs, its `DATABASE_*` settings;
 * `url` and `settings` unused: Drizzle opens no connection of its own). Drizzle reads timestamps
 * as text on this client.
 */
export function openOrm(_url: string, sql: Database, _settings?: unknown): OpenedOrm {
  return { db: drizzle(sql as never), close: () => Promise.resolve() };
}

/** The unit of work (one Drizzle transaction per command), the outbox and the processed events. */
export function ormPersistence(db: Orm): {
  transactions: DrizzleTransactions;
  outbox: DrizzleOutbox;
  processedEvents: DrizzleProcessedEvents;
} {
  return {
    transactions: new DrizzleTransactions(db),
    outbox: new DrizzleOutbox(db),
    processedEvents: new DrizzleProcessedEvents(db),
  };
}

/** A context's job store: its jobs in `<schema>.background_jobs`, enqueued in the command's transaction. */
export function contextJobStore(db: Orm, schema: string): JobStore {
  return new DrizzleJobStore(db, { schema });
}
