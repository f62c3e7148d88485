/**
 * The SQL of `PostgresJobStore`, one function per statement on the `background_jobs` table. Each
 * takes the postgres.js `sql` tag (the client, or the caller's transaction) and its params, and
 * answers the pending query; the store reads its rows through `job_rows.ts`.
 *
 * Each statement's comment says which rows it locks and which index serves it (the indexes are
 * made by `job_migrations.ts`). Interpolations are plain names, computed before the template, so
 * that `deno fmt` leaves the SQL as written.
 *
 * @module
 */
import type postgres from "postgres";
import type { QueuedJobStatus } from "@kit/kernel";
import type { NewJob, TenantReach } from "../store/job_store.ts";
import type { WorkerHeartbeatParams } from "../store/worker_registry.ts";
import { attemptsExhaustedCode, attemptsExhaustedMessage } from "../store/worker_registry.ts";
import {
  jobAttemptHistoryLimit,
  type JobAttemptOutcome,
  truncateAttemptMessage,
} from "../store/job_attempts.ts";

/** The postgres.js tag a statement runs on: the client, or a transaction of it. */
export type Sql = postgres.Sql | postgres.TransactionSql;

/** A statement not yet sent: awaiting it runs it and answers its rows. */
export type Statement = postgres.PendingQuery<postgres.Row[]>;

/** The channel an insert or a revival notifies on commit (the payload is the queue). */
export const jobsChannel = "kit_jobs";

/** Every column a store reads back, in table order, `last_error_message` and the lease end left out. */
export const jobColumns: readonly string[] = [
  "id",
  "name",
  "queue",
  "payload",
  "actor",
  "tenant_id",
  "correlation_id",
  "traceparent",
  "subject",
  "idempotency_key",
  "status",
  "attempts",
  "max_attempts",
  "run_at",
  "lease_token",
  "progress_done",
  "progress_total",
  "checkpoint",
  "last_error_code",
  "last_error_at",
  "created_at",
  "finished_at",
  "worker_id",
];

const columns = jobColumns.join(", ");
const viewColumns = jobColumns.filter((column) => column !== "payload").join(", ");
/** What `viewJob` reads besides the view columns: the attempt history (migration 4). */
const historyColumns = "attempt_history, attempt_started_at";
const claimedColumns = jobColumns.map((column) => `j.${column}`).join(", ");

/** The params of a claim: the queue, how many, the instant, and each job name's lease. */
export interface ClaimStatementParams {
  /** The queue to claim from. */
  readonly queue: string;
  /** The most jobs to claim. */
  readonly limit: number;
  /** The instant of the claim. */
  readonly now: Date;
  /** Lease length in ms by job name. */
  readonly leases: Readonly<Record<string, number>>;
  /** Lease length in ms of a name not in `leases`. */
  readonly defaultLeaseMs: number;
  /** The claiming worker, kept in `worker_id`. */
  readonly workerId?: string | undefined;
}

/**
 * Inserts one job; a kept idempotency key (the unique index `background_jobs_idempotency`,
 * the `on conflict` arbiter) inserts nothing and answers no row. Answers `id` of the inserted
 * job; `pg_notify` in `returning` queues a notification sent on commit.
 *
 * Locks: the new row; a concurrent insert of the same key waits on it until that transaction ends.
 *
 * @param sql The client, or the caller's transaction.
 * @param job The job to insert.
 * @returns The pending statement: one row `{ id }`, or none on a kept key.
 */
export function insertJob(sql: Sql, job: NewJob): Statement {
  const { id, name, queue, correlationId, maxAttempts, runAt, createdAt } = job;
  const payload = sql.json(job.payload as postgres.JSONValue);
  const actor = sql.json(job.actor as unknown as postgres.JSONValue);
  const tenant = job.tenantId ?? "";
  const traceparent = job.traceparent ?? null;
  const subject = job.subject ?? null;
  const key = job.idempotencyKey ?? null;
  return sql`
    insert into background_jobs
      (id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
       idempotency_key, max_attempts, run_at, created_at)
    values (${id}, ${name}, ${queue}, ${payload}, ${actor}, ${tenant}, ${correlationId},
      ${traceparent}, ${subject}, ${key}, ${maxAttempts}, ${runAt}, ${createdAt})
    on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
    returning id, pg_notify(${jobsChannel}, queue)`;
}

/**
 * The id of the job that holds an idempotency key. Index: `background_jobs_idempotency`.
 * Locks nothing.
 *
 * @param sql The client, or the caller's transaction.
 * @param key The job's name, tenant (`""` for none) and idempotency key.
 * @returns The pending statement: one row `{ id }`, or none.
 */
export function findJobByKey(
  sql: Sql,
  key: { name: string; tenantId: string; idempotencyKey: string },
): Statement {
  const { name, tenantId, idempotencyKey } = key;
  return sql`
    select id from background_jobs
    where name = ${name} and tenant_id = ${tenantId} and idempotency_key = ${idempotencyKey}`;
}

/** A row of `insertJobs`, as the JSON document carries it (snake case, dates as ISO text). */
export interface InsertRow {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: unknown;
  readonly actor: unknown;
  readonly tenant_id: string;
  readonly correlation_id: string;
  readonly traceparent: string | null;
  readonly subject: string | null;
  readonly idempotency_key: string | null;
  readonly max_attempts: number;
  readonly run_at: string;
  readonly created_at: string;
}

/**
 * Inserts many jobs in one statement (one prepared plan for any batch size), skipping kept
 * idempotency keys (`background_jobs_idempotency` arbitrates), and notifies once per queue
 * rather than per row. Answers `id` of each inserted job.
 *
 * The rows travel as one JSON document (`jsonb_to_recordset`), never as `sql.array`: a fresh
 * postgres.js client does not know the array types before it fetched them, and its first array
 * parameter fails with "malformed array literal" (postgres.js issue 789).
 *
 * `notified` is a plain `select` CTE, and PostgreSQL evaluates such a CTE only when the query
 * reads it (unlike a data-modifying CTE, which always runs to completion): the
 * `(select count(*) from notified)` column, read by no one, is what makes `pg_notify` run.
 *
 * Locks: the new rows; an insert of a key another transaction is inserting waits for it.
 *
 * @param sql The client, or the caller's transaction.
 * @param rows The jobs to insert (at least one).
 * @returns The pending statement: a row `{ id, notified }` per inserted job.
 */
export function insertJobs(sql: Sql, rows: readonly InsertRow[]): Statement {
  const document = JSON.stringify(rows);
  return sql`
    with inserted as (
      insert into background_jobs
        (id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
         idempotency_key, max_attempts, run_at, created_at)
      select id, name, queue, payload, actor, tenant_id, correlation_id, traceparent, subject,
        idempotency_key, max_attempts, run_at, created_at
      from jsonb_to_recordset(${document}::text::jsonb) as r(id text, name text,
        queue text, payload jsonb, actor jsonb, tenant_id text, correlation_id text,
        traceparent text, subject text, idempotency_key text, max_attempts integer,
        run_at timestamptz, created_at timestamptz)
      on conflict (name, tenant_id, idempotency_key) where idempotency_key is not null do nothing
      returning id, queue
    ), notified as (
      select pg_notify(${jobsChannel}, queue) from (select distinct queue from inserted) q
    )
    select id, (select count(*) from notified) as notified from inserted`;
}

/**
 * The jobs that hold some idempotency keys (the keys as one JSON document, as in `insertJobs`).
 * Index: `background_jobs_idempotency`. Locks nothing.
 *
 * @param sql The client, or the caller's transaction.
 * @param keys Each job's name, tenant (`""` for none) and idempotency key.
 * @returns The pending statement: a row `{ id, name, tenant_id, idempotency_key }` per job found.
 */
export function findJobsByKeys(
  sql: Sql,
  keys: readonly { name: string; tenant_id: string; idempotency_key: string }[],
): Statement {
  const document = JSON.stringify(keys);
  return sql`
    select id, name, tenant_id, idempotency_key from background_jobs
    where (name, tenant_id, idempotency_key) in (
      select name, tenant_id, idempotency_key
      from jsonb_to_recordset(${document}::text::jsonb)
        as k(name text, tenant_id text, idempotency_key text))`;
}

/**
 * The `set` list of both claims: running, one more attempt, a new lease token, and the lease's
 * end (`now` plus the job name's lease, or the default) — the one place that end is computed.
 */
function claimSet(sql: Sql, params: ClaimStatementParams): postgres.PendingQuery<postgres.Row[]> {
  const { now, defaultLeaseMs } = params;
  const leases = sql.json(params.leases as postgres.JSONValue);
  const workerId = params.workerId ?? null;
  return sql`status = 'running', attempts = j.attempts + 1, attempt_started_at = ${now},
      worker_id = ${workerId}::text,
      lease_token = gen_random_uuid()::text,
      lease_expires_at = ${now}::timestamptz + make_interval(secs =>
        coalesce((${leases}::jsonb ->> j.name)::numeric, ${defaultLeaseMs}) / 1000.0)`;
}

/**
 * The new `attempt_history` of a row whose current attempt ended: the history with the attempt
 * appended (its number, outcome, error, start and end in ms; nulls left out), its oldest entry
 * dropped once it holds `jobAttemptHistoryLimit`. Reads the row's columns before the update.
 */
function appendedHistory(
  sql: Sql,
  ended: {
    outcome: JobAttemptOutcome;
    now: Date;
    errorCode?: string | undefined;
    errorMessage?: string | undefined;
  },
): postgres.PendingQuery<postgres.Row[]> {
  const { outcome, now } = ended;
  const code = ended.errorCode ?? null;
  const message = ended.errorMessage ?? null;
  const endedAt = now.getTime();
  return sql`(case when jsonb_array_length(attempt_history) >= ${jobAttemptHistoryLimit}
      then attempt_history - 0 else attempt_history end)
    || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('attempt', attempts,
      'outcome', ${outcome}::text, 'errorCode', ${code}::text, 'errorMessage', ${message}::text,
      'startedAt', round(extract(epoch from attempt_started_at) * 1000)::bigint,
      'endedAt', ${endedAt}::bigint)))`;
}

/**
 * Claims due waiting jobs of a queue, oldest `run_at` first: the short claim a busy queue uses.
 *
 * Locks: the picked rows, `for update skip locked` (rows another claim holds are passed over,
 * never waited for), then updates them. Index: `background_jobs_due` `(queue, run_at, id) where
 * status = 'waiting'` serves the pick in order, stopping at `limit`; the update joins on the
 * primary key.
 *
 * @param sql The client.
 * @param params The queue, limit, instant and leases.
 * @returns The pending statement: every column of each claimed job (`jobColumns`).
 */
export function claimDueJobs(sql: Sql, params: ClaimStatementParams): Statement {
  const { queue, limit, now } = params;
  const set = claimSet(sql, params);
  const returned = sql.unsafe(claimedColumns);
  return sql`
    update background_jobs j
    set ${set}
    from (
      select id from background_jobs
      where queue = ${queue} and status = 'waiting' and run_at <= ${now}
      order by run_at, id
      limit ${limit}
      for update skip locked
    ) picked
    where j.id = picked.id
    returning ${returned}`;
}

/**
 * Claims due waiting jobs and jobs whose lease ended with attempts left, oldest `run_at` first;
 * and ends, as dead with `ATTEMPTS_EXHAUSTED`, the jobs whose lease ended on their last attempt.
 * Both append the ended attempt to `attempt_history` (`expired`, `dead`).
 *
 * `died` is a data-modifying CTE: PostgreSQL runs it to completion whether or not the query reads
 * it, so nothing selects from it.
 *
 * Locks: `for update skip locked` on the exhausted rows (all of them), on up to `limit` due rows
 * and on up to `limit` expired rows; of the due and expired rows, the `limit` first are updated,
 * and the others stay locked until the statement's transaction ends. Indexes:
 * `background_jobs_leased` `(queue, lease_expires_at) where status = 'running'` serves `exhausted`
 * and `expired`; `background_jobs_due` serves `due`.
 *
 * @param sql The client.
 * @param params The queue, limit, instant and leases.
 * @returns The pending statement: every column of each claimed job (`jobColumns`), and
 * `lease_ended`: true for a job taken over from an attempt whose lease ended.
 */
export function claimJobsWithEndedLeases(sql: Sql, params: ClaimStatementParams): Statement {
  const { queue, limit, now } = params;
  const set = claimSet(sql, params);
  const returned = sql.unsafe(claimedColumns);
  const exhaustedCode = attemptsExhaustedCode;
  const exhaustedMessage = attemptsExhaustedMessage;
  const died = appendedHistory(sql, {
    outcome: "dead",
    now,
    errorCode: exhaustedCode,
    errorMessage: exhaustedMessage,
  });
  const expired = appendedHistory(sql, { outcome: "expired", now });
  return sql`
    with exhausted as (
      select id from background_jobs
      where queue = ${queue} and status = 'running' and lease_expires_at <= ${now}
        and attempts >= max_attempts
      for update skip locked
    ), died as (
      update background_jobs j
      set status = 'dead', finished_at = ${now}, lease_token = null, lease_expires_at = null,
        last_error_code = ${exhaustedCode}, last_error_at = ${now},
        last_error_message = ${exhaustedMessage}, attempt_history = ${died}
      from exhausted where j.id = exhausted.id
    ), due as (
      select id, run_at from background_jobs
      where queue = ${queue} and status = 'waiting' and run_at <= ${now}
      order by run_at, id
      limit ${limit}
      for update skip locked
    ), expired as (
      select id, run_at from background_jobs
      where queue = ${queue} and status = 'running' and lease_expires_at <= ${now}
        and attempts < max_attempts
      order by lease_expires_at, id
      limit ${limit}
      for update skip locked
    ), picked as (
      select id, ended from (
        select id, run_at, false as ended from due
        union all select id, run_at, true from expired
      ) c
      order by run_at, id
      limit ${limit}
    )
    update background_jobs j
    set ${set},
      attempt_history = case when picked.ended then ${expired} else j.attempt_history end
    from picked where j.id = picked.id
    returning ${returned}, picked.ended as lease_ended`;
}

/**
 * Takes back, of every queue, up to `limit` running jobs whose lease ended, oldest lease first:
 * waiting again (its due time kept, the attempt appended to `attempt_history` as `expired`), or
 * dead with `ATTEMPTS_EXHAUSTED` when it was the last attempt (as `claimJobsWithEndedLeases`).
 *
 * Locks: `for update skip locked` on the picked rows, so that rescues in many processes at once,
 * and claims, never take one job twice nor wait on each other. Index: `background_jobs_leased`
 * `(queue, lease_expires_at) where status = 'running'`: a scan of the running rows only.
 *
 * @param sql The client.
 * @param params The instant and the most jobs to rescue.
 * @returns The pending statement: a row `{ id, queue, status }` per rescued job.
 */
export function rescueJobs(sql: Sql, params: { now: Date; limit: number }): Statement {
  const { now, limit } = params;
  const died = appendedHistory(sql, {
    outcome: "dead",
    now,
    errorCode: attemptsExhaustedCode,
    errorMessage: attemptsExhaustedMessage,
  });
  const expired = appendedHistory(sql, { outcome: "expired", now });
  const code = attemptsExhaustedCode;
  const message = attemptsExhaustedMessage;
  return sql`
    with ended as (
      select id, attempts >= max_attempts as exhausted from background_jobs
      where status = 'running' and lease_expires_at <= ${now}
      order by lease_expires_at, id
      limit ${limit}
      for update skip locked
    )
    update background_jobs j
    set status = case when ended.exhausted then 'dead' else 'waiting' end,
      finished_at = case when ended.exhausted then ${now}::timestamptz end,
      lease_token = null, lease_expires_at = null,
      last_error_code = case when ended.exhausted then ${code}::text else j.last_error_code end,
      last_error_message = case when ended.exhausted then ${message}::text
        else j.last_error_message end,
      last_error_at = case when ended.exhausted then ${now}::timestamptz else j.last_error_at end,
      attempt_history = case when ended.exhausted then ${died} else ${expired} end
    from ended where j.id = ended.id
    returning j.id, j.queue, j.status`;
}

/**
 * Registers a worker or refreshes its registration (an upsert on the primary key), and deletes
 * the registrations that expired.
 *
 * Locks: the worker's row, and the expired rows not locked already (`skip locked`: two
 * heartbeats never wait on each other's cleanup). Reads the small table whole.
 *
 * @param sql The client.
 * @param params The worker, the instant and the ttl.
 * @returns The pending statement: no rows.
 */
export function heartbeatWorker(sql: Sql, params: WorkerHeartbeatParams): Statement {
  const { worker, now } = params;
  const { id, startedAt } = worker;
  const host = worker.host ?? null;
  const pid = worker.pid ?? null;
  const queues = JSON.stringify([...worker.queues].sort());
  const expiresAt = new Date(now.getTime() + params.ttlMs);
  return sql`
    with forgotten as (
      delete from background_job_workers where id in (
        select id from background_job_workers where expires_at <= ${now} and id <> ${id}
        for update skip locked)
    )
    insert into background_job_workers
      (id, host, pid, queues, started_at, heartbeat_at, expires_at)
    values (${id}, ${host}, ${pid}, ${queues}::text::jsonb, ${startedAt}, ${now}, ${expiresAt})
    on conflict (id) do update set host = excluded.host, pid = excluded.pid,
      queues = excluded.queues, started_at = excluded.started_at,
      heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at`;
}

/**
 * Forgets a worker. Locks its row. Index: the primary key.
 *
 * @param sql The client.
 * @param id The worker.
 * @returns The pending statement: no rows.
 */
export function deregisterWorker(sql: Sql, id: string): Statement {
  return sql`delete from background_job_workers where id = ${id}`;
}

/**
 * The workers live at an instant, oldest first. Reads the small table; locks nothing.
 *
 * @param sql The client.
 * @param now The instant.
 * @returns The pending statement: a row per live worker.
 */
export function listWorkers(sql: Sql, now: Date): Statement {
  return sql`
    select id, host, pid, queues, started_at, heartbeat_at, expires_at
    from background_job_workers where expires_at > ${now}
    order by started_at, id`;
}

/**
 * Marks a held job succeeded: its id and lease token match and it is running.
 *
 * Locks: the job's row (waits for a concurrent writer of it). Index: the primary key.
 *
 * @param sql The client.
 * @param params The job, its lease token and the instant.
 * @returns The pending statement: one row `{ ok }` when the job was held, else none.
 */
export function completeJob(
  sql: Sql,
  params: { id: string; leaseToken: string; now: Date },
): Statement {
  const { id, leaseToken, now } = params;
  return sql`
    update background_jobs
    set status = 'succeeded', finished_at = ${now}, lease_token = null, lease_expires_at = null
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`;
}

/**
 * Marks many held jobs succeeded in one statement (the ids and tokens as one JSON object, id to
 * token).
 *
 * Locks: the rows of the held jobs. Index: the primary key, one lookup per job: the ids are an
 * array (`id = any(...)`), not a joined record set, for which the planner (estimating 100 rows)
 * chose a bitmap scan of the partial index `background_jobs_leased`, walking every entry of a
 * running row not yet vacuumed (3,012 entries, 472 heap blocks for 50 jobs: 4.1 ms where the
 * lookups take well under one).
 *
 * @param sql The client.
 * @param params The jobs with their lease tokens, and the instant.
 * @returns The pending statement: a row `{ id }` per job that was held.
 */
export function completeJobs(
  sql: Sql,
  params: { jobs: readonly { id: string; leaseToken: string }[]; now: Date },
): Statement {
  const { now } = params;
  const held: Record<string, string> = {};
  for (const job of params.jobs) held[job.id] = job.leaseToken;
  const document = JSON.stringify(held);
  return sql`
    update background_jobs j
    set status = 'succeeded', finished_at = ${now}, lease_token = null, lease_expires_at = null
    where j.id = any(array(select jsonb_object_keys(${document}::text::jsonb)))
      and j.lease_token = ${document}::text::jsonb ->> j.id and j.status = 'running'
    returning j.id`;
}

/**
 * Records a held job's failed attempt: waiting again at `retryAt`, or dead without one; appends
 * it to `attempt_history` (`retried` or `dead`, the message cut by `truncateAttemptMessage`).
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param sql The client.
 * @param params The job, its lease token, the instant, the error, and when to retry if at all.
 * @returns The pending statement: one row `{ ok }` when the job was held, else none.
 */
export function failJob(
  sql: Sql,
  params: {
    id: string;
    leaseToken: string;
    now: Date;
    errorCode: string;
    errorMessage: string;
    retryAt?: Date | undefined;
  },
): Statement {
  const { id, leaseToken, now, errorCode, errorMessage, retryAt } = params;
  const status = retryAt === undefined ? "dead" : "waiting";
  const history = appendedHistory(sql, {
    outcome: retryAt === undefined ? "dead" : "retried",
    now,
    errorCode,
    errorMessage: truncateAttemptMessage(errorMessage),
  });
  const runAt = retryAt ?? sql`run_at`;
  const finishedAt = retryAt === undefined ? params.now : null;
  return sql`
    update background_jobs
    set status = ${status}, run_at = ${runAt}, finished_at = ${finishedAt},
      lease_token = null, lease_expires_at = null,
      last_error_code = ${errorCode}, last_error_message = ${errorMessage}, last_error_at = ${now},
      attempt_history = ${history}
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`;
}

/**
 * Gives a held job back, waiting, its attempt not counted.
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param sql The client.
 * @param params The job and its lease token.
 * @returns The pending statement: one row `{ ok }` when the job was held, else none.
 */
export function releaseJob(sql: Sql, params: { id: string; leaseToken: string }): Statement {
  const { id, leaseToken } = params;
  return sql`
    update background_jobs
    set status = 'waiting', attempts = attempts - 1, lease_token = null, lease_expires_at = null
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`;
}

/**
 * Extends a held job's lease to `leaseEnds`; sets progress and the checkpoint when given (each
 * column kept as it is otherwise).
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param sql The client, or the step's transaction when a checkpoint is saved.
 * @param params The job, its lease token, the lease's new end, and the progress and checkpoint.
 * @returns The pending statement: one row `{ ok }` when the job was held, else none.
 */
export function reportJob(
  sql: Sql,
  params: {
    id: string;
    leaseToken: string;
    leaseEnds: Date;
    progress?: { done: number; total?: number } | undefined;
    checkpoint?: unknown;
  },
): Statement {
  const { id, leaseToken, leaseEnds, progress } = params;
  const done = progress === undefined ? sql`progress_done` : progress.done;
  const total = progress === undefined ? sql`progress_total` : progress.total ?? null;
  const checkpoint = params.checkpoint === undefined
    ? sql`checkpoint`
    : sql.json(params.checkpoint as postgres.JSONValue);
  return sql`
    update background_jobs
    set lease_expires_at = ${leaseEnds}, progress_done = ${done}, progress_total = ${total},
      checkpoint = ${checkpoint}
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`;
}

/**
 * Cancels a waiting or running job of the reach.
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param sql The client, or the caller's transaction.
 * @param params The job, the reach and the instant.
 * @returns The pending statement: one row `{ ok }` when the job was cancelled, else none.
 */
export function cancelJob(
  sql: Sql,
  params: { id: string; reach: TenantReach; now: Date },
): Statement {
  const { id, now } = params;
  const reach = reachCondition(sql, params.reach);
  return sql`
    update background_jobs
    set status = 'cancelled', finished_at = ${now}, lease_token = null, lease_expires_at = null
    where id = ${id} and status in ('waiting', 'running') and ${reach}
    returning 1 as ok`;
}

/**
 * What `find` reads of a job of the reach (never its payload). Index: the primary key. Locks
 * nothing.
 *
 * @param sql The client.
 * @param params The job and the reach.
 * @returns The pending statement: one row, or none.
 */
export function findJob(sql: Sql, params: { id: string; reach: TenantReach }): Statement {
  const { id } = params;
  const reach = reachCondition(sql, params.reach);
  return sql`
    select id, name, status, attempts, progress_done, progress_total, last_error_code, tenant_id,
      subject, run_at
    from background_jobs where id = ${id} and ${reach}`;
}

/**
 * Revives a dead job of the reach: waiting, due now, attempts back to zero; notifies its queue on
 * commit.
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param sql The client, or the caller's transaction.
 * @param params The job, the reach and the instant.
 * @returns The pending statement: one row `{ ok }` when the job was revived, else none.
 */
export function retryDeadJob(
  sql: Sql,
  params: { id: string; reach: TenantReach; now: Date },
): Statement {
  const { id, now } = params;
  const reach = reachCondition(sql, params.reach);
  return sql`
    update background_jobs
    set status = 'waiting', attempts = 0, run_at = ${now}, finished_at = null
    where id = ${id} and status = 'dead' and ${reach}
    returning 1 as ok, pg_notify(${jobsChannel}, queue)`;
}

/**
 * Deletes the finished jobs finished before an instant.
 *
 * Locks: the deleted rows. Index: `background_jobs_finished` `(finished_at) where finished_at is
 * not null`.
 *
 * @param sql The client.
 * @param before The instant.
 * @returns The pending statement: a row `{ ok }` per deleted job.
 */
export function purgeFinishedJobs(sql: Sql, before: Date): Statement {
  return sql`
    delete from background_jobs
    where finished_at < ${before} and status in ('succeeded', 'dead', 'cancelled')
    returning 1 as ok`;
}

/**
 * The jobs of the reach counted by queue and status. Reads the whole table (no index narrows
 * it); locks nothing.
 *
 * @param sql The client.
 * @param reach The reach.
 * @returns The pending statement: a row `{ queue, status, n }` per queue and status with jobs.
 */
export function countJobs(sql: Sql, reach: TenantReach): Statement {
  const condition = reachCondition(sql, reach);
  return sql`
    select queue, status, count(*)::int as n from background_jobs
    where ${condition}
    group by queue, status`;
}

/**
 * The activity of a window, of the reach: a row per queue, bucket and kind — jobs succeeded and
 * dead by `finished_at`, failed attempts by `last_error_at` (a job's last one). Indexes:
 * `background_jobs_finished` `(finished_at)` and `background_jobs_failed` `(last_error_at)`
 * (migration 3) bound each branch to the window. Locks nothing.
 *
 * @param sql The client.
 * @param params The reach, the queue if any, the window's start and end, and a bucket's length.
 * @returns The pending statement: rows `{ queue, kind, bucket, n }`.
 */
export function jobActivity(
  sql: Sql,
  params: {
    reach: TenantReach;
    queue?: string | undefined;
    since: Date;
    until: Date;
    bucketMs: number;
  },
): Statement {
  const { since, until, bucketMs } = params;
  const queue = params.queue ?? null;
  const reach = reachCondition(sql, params.reach);
  const bucket = sql`floor(extract(epoch from (at - ${since}::timestamptz)) * 1000 / ${bucketMs})`;
  return sql`
    select queue, kind, ${bucket}::int as bucket, count(*)::int as n
    from (
      select queue, status as kind, finished_at as at from background_jobs
      where finished_at >= ${since} and finished_at < ${until}
        and status in ('succeeded', 'dead') and ${reach}
        and (${queue}::text is null or queue = ${queue})
      union all
      select queue, 'failed', last_error_at from background_jobs
      where last_error_at >= ${since} and last_error_at < ${until} and ${reach}
        and (${queue}::text is null or queue = ${queue})
    ) activity
    group by queue, kind, 3`;
}

/** The filters of `pageJobs`; each one given narrows the page. */
export interface PageFilters {
  readonly reach: TenantReach;
  readonly queue?: string | undefined;
  readonly status?: QueuedJobStatus | undefined;
  readonly namePrefix?: string | undefined;
  readonly subject?: string | undefined;
  readonly id?: string | undefined;
  readonly errorCode?: string | undefined;
  /** The keyset cursor: the last job of the page before. */
  readonly after?: { readonly createdAt: Date; readonly id: string } | undefined;
}

/**
 * A page of the jobs of the reach, newest first, without payloads: keyset pagination on
 * `(created_at, id)`. Index: `background_jobs_page` `(created_at desc, id desc)`, or
 * `background_jobs_queue_page` `(queue, status, created_at desc, id desc)` for a queue and status
 * (migration 2). Locks nothing.
 *
 * @param sql The client.
 * @param filters The reach, the filters and the cursor.
 * @param limit The most rows to answer.
 * @returns The pending statement: the `jobViewColumns` of each job.
 */
export function pageJobs(sql: Sql, filters: PageFilters, limit: number): Statement {
  const { queue, status, namePrefix, subject, id, errorCode, after } = filters;
  const conditions = [
    reachCondition(sql, filters.reach),
    ...(queue === undefined ? [] : [sql`queue = ${queue}`]),
    ...(status === undefined ? [] : [sql`status = ${status}`]),
    ...(namePrefix === undefined ? [] : [sql`starts_with(name, ${namePrefix})`]),
    ...(subject === undefined ? [] : [sql`subject = ${subject}`]),
    ...(id === undefined ? [] : [sql`id = ${id}`]),
    ...(errorCode === undefined ? [] : [sql`last_error_code = ${errorCode}`]),
    ...(after === undefined ? [] : [keysetBefore(sql, after)]),
  ];
  const where = conditions.reduce((all, condition) => sql`${all} and ${condition}`);
  const viewed = sql.unsafe(viewColumns);
  return sql`
    select ${viewed} from background_jobs
    where ${where}
    order by created_at desc, id desc
    limit ${limit}`;
}

function keysetBefore(
  sql: Sql,
  after: { createdAt: Date; id: string },
): postgres.PendingQuery<postgres.Row[]> {
  const { createdAt, id } = after;
  return sql`(created_at, id) < (${createdAt}::timestamptz, ${id})`;
}

/**
 * A job of the reach, without its payload, with its attempt history. Index: the primary key.
 * Locks nothing.
 *
 * @param sql The client.
 * @param params The job and the reach.
 * @returns The pending statement: the `jobViewColumns` of the job, `attempt_history` and
 * `attempt_started_at`, or no row.
 */
export function viewJob(sql: Sql, params: { id: string; reach: TenantReach }): Statement {
  const { id } = params;
  const reach = reachCondition(sql, params.reach);
  const viewed = sql.unsafe(`${viewColumns}, ${historyColumns}`);
  return sql`
    select ${viewed} from background_jobs
    where id = ${id} and ${reach}`;
}

/**
 * Every job kept, of a queue and a status when given, oldest first (for tests and tools). Reads
 * and sorts the whole table; locks nothing.
 *
 * @param sql The client.
 * @param params The queue and the status, if any.
 * @returns The pending statement: every column of each job (`jobColumns`).
 */
export function listJobs(
  sql: Sql,
  params: { queue?: string | undefined; status?: QueuedJobStatus | undefined },
): Statement {
  const queue = params.queue ?? null;
  const status = params.status ?? null;
  const all = sql.unsafe(columns);
  return sql`
    select ${all} from background_jobs
    where (${queue}::text is null or queue = ${queue})
      and (${status}::text is null or status = ${status})
    order by created_at, id`;
}

/**
 * The condition that keeps the jobs of a reach: all without a tenant, else the tenant's and the
 * elevated ones (a JSON list, not `sql.array`: see `insertJobs`).
 */
function reachCondition(sql: Sql, reach: TenantReach): postgres.PendingQuery<postgres.Row[]> {
  if (reach.tenantId === undefined) return sql`true`;
  const tenants = JSON.stringify([reach.tenantId, ...(reach.elevatedTenants ?? [])]);
  return sql`tenant_id in (select jsonb_array_elements_text(${tenants}::text::jsonb))`;
}
