import type postgres from "postgres";
import { type Migration, type MigrationMismatchPolicy, runMigrations } from "@kit/kernel/postgres";

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
];

/**
 * Creates or updates the `background_jobs` table in a schema (default: the connection's search
 * path). Idempotent; concurrent runs are serialised by an advisory lock. A ledger that differs
 * from this list is refused (see `runMigrations`).
 */
export function migrateJobs(
  sql: postgres.Sql,
  options: { schema?: string; onMismatch?: MigrationMismatchPolicy } = {},
): Promise<void> {
  return runMigrations(sql, {
    table: "kit_jobs_migrations",
    migrations: jobMigrations,
    ...options,
  });
}
