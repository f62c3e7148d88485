import type { BuildColumns, HasDefault, IsPrimaryKey, NotNull } from "drizzle-orm";
import type {
  PgIntegerBuilderInitial,
  PgJsonbBuilderInitial,
  PgTableWithColumns,
  PgTextBuilderInitial,
  PgTimestampBuilderInitial,
} from "drizzle-orm/pg-core";

type Text<N extends string> = PgTextBuilderInitial<N, [string, ...string[]]>;
type Integer<N extends string> = PgIntegerBuilderInitial<N>;
type Jsonb<N extends string> = PgJsonbBuilderInitial<N>;
/** A `timestamptz` column read as a `Date`. */
export type Timestamptz<N extends string> = PgTimestampBuilderInitial<N>;

/** The columns of `jobsTable`, as Drizzle builds them (the table of `@kit/jobs`'s migrations). */
export type JobsTableColumns = {
  /** `id text primary key`. */
  id: IsPrimaryKey<NotNull<Text<"id">>>;
  /** `name text not null`. */
  name: NotNull<Text<"name">>;
  /** `queue text not null`. */
  queue: NotNull<Text<"queue">>;
  /** `payload jsonb not null`. */
  payload: NotNull<Jsonb<"payload">>;
  /** `actor jsonb not null`. */
  actor: NotNull<Jsonb<"actor">>;
  /** `tenant_id text not null default ''`. */
  tenantId: HasDefault<NotNull<Text<"tenant_id">>>;
  /** `correlation_id text not null`. */
  correlationId: NotNull<Text<"correlation_id">>;
  /** `traceparent text`. */
  traceparent: Text<"traceparent">;
  /** `subject text`. */
  subject: Text<"subject">;
  /** `idempotency_key text`. */
  idempotencyKey: Text<"idempotency_key">;
  /** `status text not null default 'waiting'`. */
  status: HasDefault<NotNull<Text<"status">>>;
  /** `attempts integer not null default 0`. */
  attempts: HasDefault<NotNull<Integer<"attempts">>>;
  /** `max_attempts integer not null`. */
  maxAttempts: NotNull<Integer<"max_attempts">>;
  /** `run_at timestamptz not null`. */
  runAt: NotNull<Timestamptz<"run_at">>;
  /** `lease_token text`. */
  leaseToken: Text<"lease_token">;
  /** `lease_expires_at timestamptz`. */
  leaseExpiresAt: Timestamptz<"lease_expires_at">;
  /** `progress_done integer not null default 0`. */
  progressDone: HasDefault<NotNull<Integer<"progress_done">>>;
  /** `progress_total integer`. */
  progressTotal: Integer<"progress_total">;
  /** `checkpoint jsonb`. */
  checkpoint: Jsonb<"checkpoint">;
  /** `last_error_code text`. */
  lastErrorCode: Text<"last_error_code">;
  /** `last_error_message text`. */
  lastErrorMessage: Text<"last_error_message">;
  /** `created_at timestamptz not null`. */
  createdAt: NotNull<Timestamptz<"created_at">>;
  /** `finished_at timestamptz`. */
  finishedAt: Timestamptz<"finished_at">;
  /** `last_error_at timestamptz` (migration 3). */
  lastErrorAt: Timestamptz<"last_error_at">;
  /** `attempt_history jsonb not null default '[]'` (migration 4). */
  attemptHistory: HasDefault<NotNull<Jsonb<"attempt_history">>>;
  /** `attempt_started_at timestamptz` (migration 4). */
  attemptStartedAt: Timestamptz<"attempt_started_at">;
  /** `worker_id text` (migration 5). */
  workerId: Text<"worker_id">;
};

/** The columns of `jobWorkersTable`, as Drizzle builds them. */
export type JobWorkersTableColumns = {
  /** `id text primary key`. */
  id: IsPrimaryKey<NotNull<Text<"id">>>;
  /** `host text`. */
  host: Text<"host">;
  /** `pid integer`. */
  pid: Integer<"pid">;
  /** `queues jsonb not null`. */
  queues: NotNull<Jsonb<"queues">>;
  /** `started_at timestamptz not null`. */
  startedAt: NotNull<Timestamptz<"started_at">>;
  /** `heartbeat_at timestamptz not null`. */
  heartbeatAt: NotNull<Timestamptz<"heartbeat_at">>;
  /** `expires_at timestamptz not null`. */
  expiresAt: NotNull<Timestamptz<"expires_at">>;
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
