import type { Migration } from "@kit/kernel/postgres";
import type { SqlQuery } from "./job_sql_driver.ts";

/** The numbered migrations of the `background_jobs` table and the registry of workers. */
export const jobMigrations: readonly Migration[] = [
  {
    version: 1,
    id: "0001_background_jobs",
    sql: `
create table if not exists background_jobs (
  id text primary key,
  name text not null,
  queue text not null,
  payload jsonb not null,
  actor jsonb not null,
  tenant_id text not null default '',
  correlation_id text not null,
  traceparent text,
  subject text,
  idempotency_key text,
  status text not null default 'waiting'
    check (status in ('waiting', 'running', 'succeeded', 'dead', 'cancelled')),
  attempts integer not null default 0,
  max_attempts integer not null,
  run_at timestamptz not null,
  lease_token text,
  lease_expires_at timestamptz,
  progress_done integer not null default 0,
  progress_total integer,
  checkpoint jsonb,
  last_error_code text,
  last_error_message text,
  created_at timestamptz not null,
  finished_at timestamptz
);
create unique index if not exists background_jobs_idempotency
  on background_jobs (name, tenant_id, idempotency_key) where idempotency_key is not null;
create index if not exists background_jobs_due
  on background_jobs (queue, run_at, id) where status = 'waiting';
create index if not exists background_jobs_leased
  on background_jobs (queue, lease_expires_at) where status = 'running';
create index if not exists background_jobs_finished
  on background_jobs (finished_at) where finished_at is not null;
`,
  },
  {
    // The operators' pages (jobPage): newest first, of all queues or of one queue and status.
    version: 2,
    sql: `
create index if not exists background_jobs_page
  on background_jobs (created_at desc, id desc);
create index if not exists background_jobs_queue_page
  on background_jobs (queue, status, created_at desc, id desc);
`,
  },
  {
    // When the last failed attempt failed (the operators' pages and jobActivity), and the index
    // that counts the failures of a recent window.
    version: 3,
    sql: `
alter table background_jobs add column if not exists last_error_at timestamptz;
create index if not exists background_jobs_failed
  on background_jobs (last_error_at) where last_error_at is not null;
`,
  },
  {
    // The attempt history (jobView): the last 20 ended attempts, appended by the fail and claim
    // statements; a success is read from finished_at, so completions write nothing more. And when
    // the current attempt started (set by the claims).
    version: 4,
    sql: `
alter table background_jobs add column if not exists attempt_history jsonb not null default '[]';
alter table background_jobs add column if not exists attempt_started_at timestamptz;
`,
  },
  {
    // The registry of live workers (workerHeartbeat, workerList): a row per worker process,
    // upserted by its heartbeat, deleted when it stops or, once expired, by any heartbeat; and
    // the worker that holds or last held each job (set by the claims).
    version: 5,
    sql: `
alter table background_jobs add column if not exists worker_id text;
create table if not exists background_job_workers (
  id text primary key,
  host text,
  pid integer,
  queues jsonb not null,
  started_at timestamptz not null,
  heartbeat_at timestamptz not null,
  expires_at timestamptz not null
);
`,
  },
  {
    // Retention (jobPrune): a queue's finished jobs of one status by finish time, so that a prune
    // by age or by count is a range scan of the rows it deletes.
    version: 6,
    sql: `
create index if not exists background_jobs_retention
  on background_jobs (queue, status, finished_at, id) where finished_at is not null;
`,
  },
];

/**
 * Creates or updates the job tables in a schema, through a driver's transaction (`query` runs
 * on it): the schema made if missing, every migration of {@linkcode jobMigrations} run in order
 * (each is idempotent), concurrent runs serialised by an advisory lock. For the ORM packages'
 * `createJobTable`; kit's own ledger of applied versions is `migrateJobs` (postgres.js).
 *
 * @param query The query of an open transaction; the caller commits it.
 * @param schema The schema (a plain identifier).
 * @returns When the tables are up to date in the transaction.
 */
export async function createJobTablesIn(query: SqlQuery, schema: string): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) {
    throw new TypeError(
      `A job table's schema is a plain identifier (letters, digits, _), got ${
        JSON.stringify(schema)
      }`,
    );
  }
  const run = (name: string, text: string, params: unknown[] = []) => query({ name, text, params });
  await run("lockJobTables", "select pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `kit_jobs_tables:${schema}`,
  ]);
  await run("createJobSchema", `create schema if not exists "${schema}"`);
  await run("setJobSchema", `set local search_path to "${schema}"`);
  for (const migration of jobMigrations) await run("migrateJobTables", migration.sql);
}
