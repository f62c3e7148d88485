import knex, { type Knex } from "knex";
import type { JobStore } from "@kit/jobs";
import { postgresClientOptions, type PostgresClientSettings } from "@kit/kernel/postgres";
import { KnexJobStore, KnexOutbox, KnexProcessedEvents, KnexTransactions } from "@kit/knex";
import project from "../../../kit.config.json" with { type: "json" };
import type { Database } from "./database.ts";
// Knex loads its driver, `pg`, by name: imported here so that Deno resolves that peer of knex.
import "pg";

/**
 * The project's ORM: Knex on `pg`, a pool of its own beside the platform's postgres.js client
 * (which runs the migrations and the readiness check). The repositories write with
 * `currentKnex(db)`, in the unit of work under way; the migrations are the project's numbered SQL
 * migrations (`migrations.ts`).
 */
export type Orm = Knex;

/** The ORM's database, and how to release it. */
export interface OpenedOrm {
  readonly db: Orm;
  close(): Promise<void>;
}

/**
 * Knex on the database at `url`, with the platform's database settings (`settings`, from the
 * `DATABASE_*` variables: `readEnvironment` passes `config.database`) and kit's defaults: a pool
 * of 10, connect and acquire time-outs of 5 s, a statement time-out of 15 s (`sql`, the
 * platform's client, unused).
 */
export function openOrm(
  url: string,
  _sql: Database,
  settings: PostgresClientSettings = {},
): OpenedOrm {
  const options = postgresClientOptions(settings);
  const db = knex({
    client: "pg",
    connection: {
      connectionString: url,
      application_name: project.name,
      connectionTimeoutMillis: Number(options.connect_timeout) * 1000,
      statement_timeout: Number(options.connection?.statement_timeout),
      ...(options.query_timeout ? { query_timeout: options.query_timeout * 1000 } : {}),
    },
    pool: { min: 0, max: Number(options.max) },
    acquireConnectionTimeout: Number(options.acquire_timeout) * 1000,
  });
  return { db, close: () => db.destroy() };
}

/** The unit of work (one Knex transaction per command), the outbox and the processed events. */
export function ormPersistence(db: Orm): {
  transactions: KnexTransactions;
  outbox: KnexOutbox;
  processedEvents: KnexProcessedEvents;
} {
  return {
    transactions: new KnexTransactions(db),
    outbox: new KnexOutbox(db),
    processedEvents: new KnexProcessedEvents(db),
  };
}

/** A context's job store: its jobs in `<schema>.background_jobs`, enqueued in the command's transaction. */
export function contextJobStore(db: Orm, schema: string): JobStore {
  return new KnexJobStore(db, { schema });
}
