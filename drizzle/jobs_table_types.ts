import type { BuildColumns, HasDefault, IsPrimaryKey, NotNull } from "drizzle-orm";
import type {
  PgIntegerBuilderInitial,
  PgJsonbBuilderInitial,
  PgTableWithColumns,
  PgTextBuilderInitial,
  PgTimestampBuilderInitial,
} from "drizzle-orm/pg-core";

/** The columns of `jobsTable`, as Drizzle builds them (the table of `@kit/jobs`'s migrations). */
export type JobsTableColumns = {
  /** `id text primary key`. */
  id: IsPrimaryKey<NotNull<PgTextBuilderInitial<"id", [string, ...string[]]>>>;
  /** `name text not null`. */
  name: NotNull<PgTextBuilderInitial<"name", [string, ...string[]]>>;
  /** `queue text not null`. */
  queue: NotNull<PgTextBuilderInitial<"queue", [string, ...string[]]>>;
  /** `payload jsonb not null`. */
  payload: NotNull<PgJsonbBuilderInitial<"payload">>;
  /** `actor jsonb not null`. */
  actor: NotNull<PgJsonbBuilderInitial<"actor">>;
  /** `tenant_id text not null default ''`. */
  tenantId: HasDefault<NotNull<PgTextBuilderInitial<"tenant_id", [string, ...string[]]>>>;
  /** `correlation_id text not null`. */
  correlationId: NotNull<PgTextBuilderInitial<"correlation_id", [string, ...string[]]>>;
  /** `traceparent text`. */
  traceparent: PgTextBuilderInitial<"traceparent", [string, ...string[]]>;
  /** `subject text`. */
  subject: PgTextBuilderInitial<"subject", [string, ...string[]]>;
  /** `idempotency_key text`. */
  idempotencyKey: PgTextBuilderInitial<"idempotency_key", [string, ...string[]]>;
  /** `status text not null default 'waiting'`. */
  status: HasDefault<NotNull<PgTextBuilderInitial<"status", [string, ...string[]]>>>;
  /** `attempts integer not null default 0`. */
  attempts: HasDefault<NotNull<PgIntegerBuilderInitial<"attempts">>>;
  /** `max_attempts integer not null`. */
  maxAttempts: NotNull<PgIntegerBuilderInitial<"max_attempts">>;
  /** `run_at timestamptz not null`. */
  runAt: NotNull<PgTimestampBuilderInitial<"run_at">>;
  /** `lease_token text`. */
  leaseToken: PgTextBuilderInitial<"lease_token", [string, ...string[]]>;
  /** `lease_expires_at timestamptz`. */
  leaseExpiresAt: PgTimestampBuilderInitial<"lease_expires_at">;
  /** `progress_done integer not null default 0`. */
  progressDone: HasDefault<NotNull<PgIntegerBuilderInitial<"progress_done">>>;
  /** `progress_total integer`. */
  progressTotal: PgIntegerBuilderInitial<"progress_total">;
  /** `checkpoint jsonb`. */
  checkpoint: PgJsonbBuilderInitial<"checkpoint">;
  /** `last_error_code text`. */
  lastErrorCode: PgTextBuilderInitial<"last_error_code", [string, ...string[]]>;
  /** `last_error_message text`. */
  lastErrorMessage: PgTextBuilderInitial<"last_error_message", [string, ...string[]]>;
  /** `created_at timestamptz not null`. */
  createdAt: NotNull<PgTimestampBuilderInitial<"created_at">>;
  /** `finished_at timestamptz`. */
  finishedAt: PgTimestampBuilderInitial<"finished_at">;
  /** `last_error_at timestamptz` (migration 3). */
  lastErrorAt: PgTimestampBuilderInitial<"last_error_at">;
  /** `attempt_history jsonb not null default '[]'` (migration 4). */
  attemptHistory: HasDefault<NotNull<PgJsonbBuilderInitial<"attempt_history">>>;
  /** `attempt_started_at timestamptz` (migration 4). */
  attemptStartedAt: PgTimestampBuilderInitial<"attempt_started_at">;
  /** `worker_id text` (migration 5). */
  workerId: PgTextBuilderInitial<"worker_id", [string, ...string[]]>;
};

/** The columns of `jobWorkersTable`, as Drizzle builds them. */
export type JobWorkersTableColumns = {
  /** `id text primary key`. */
  id: IsPrimaryKey<NotNull<PgTextBuilderInitial<"id", [string, ...string[]]>>>;
  /** `host text`. */
  host: PgTextBuilderInitial<"host", [string, ...string[]]>;
  /** `pid integer`. */
  pid: PgIntegerBuilderInitial<"pid">;
  /** `queues jsonb not null`. */
  queues: NotNull<PgJsonbBuilderInitial<"queues">>;
  /** `started_at timestamptz not null`. */
  startedAt: NotNull<PgTimestampBuilderInitial<"started_at">>;
  /** `heartbeat_at timestamptz not null`. */
  heartbeatAt: NotNull<PgTimestampBuilderInitial<"heartbeat_at">>;
  /** `expires_at timestamptz not null`. */
  expiresAt: NotNull<PgTimestampBuilderInitial<"expires_at">>;
};

/** The Drizzle table `background_jobs` of a schema (`jobsTable`). */
export type JobsTable = PgTableWithColumns<{
  name: "background_jobs";
  schema: string;
  columns: BuildColumns<"background_jobs", JobsTableColumns, "pg">;
  dialect: "pg";
}>;

/** The Drizzle table `background_job_workers` of a schema (`jobWorkersTable`). */
export type JobWorkersTable = PgTableWithColumns<{
  name: "background_job_workers";
  schema: string;
  columns: BuildColumns<"background_job_workers", JobWorkersTableColumns, "pg">;
  dialect: "pg";
}>;
