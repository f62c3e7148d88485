import type postgres from "postgres";
import { type Migration, runMigrations } from "@kit/kernel/postgres";

/**
 * The numbered migrations of `kit_job_outbox`: jobs enqueued in a PostgreSQL transaction, to be
 * relayed to the job store (Redis) after commit. A row relayed is marked (`relayed_at`) and kept
 * a while, to be relayed again if Redis loses it; one holding an idempotency key stays, so that
 * the key is kept by the database.
 */
export const jobOutboxMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "0001_job_outbox",
    sql: `
create table if not exists kit_job_outbox (
  seq bigserial primary key,
  id text not null unique,
  name text not null,
  tenant_id text not null default '',
  idempotency_key text,
  job jsonb not null,
  created_at timestamptz not null default now(),
  relayed_at timestamptz
);
create unique index if not exists kit_job_outbox_idempotency
  on kit_job_outbox (name, tenant_id, idempotency_key) where idempotency_key is not null;
create index if not exists kit_job_outbox_pending on kit_job_outbox (seq) where relayed_at is null;
`,
  },
  {
    version: 2,
    id: "0002_job_outbox_relayed",
    // Relayed rows are kept a while (to be relayed again if Redis loses them): found by age.
    sql: `
create index if not exists kit_job_outbox_relayed on kit_job_outbox (relayed_at)
  where relayed_at is not null;
`,
  },
];

/** Creates or updates `kit_job_outbox` in a schema (default: the connection's search path). */
export function migrateJobOutbox(
  sql: postgres.Sql,
  options: { schema?: string } = {},
): Promise<void> {
  return runMigrations(sql, {
    table: "kit_job_outbox_migrations",
    migrations: jobOutboxMigrations,
    ...options,
  });
}
