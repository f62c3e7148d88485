/**
 * The statements that claim jobs (`for update skip locked`) and take back the jobs whose lease
 * ended. Each statement's comment says which rows it locks and which index serves it (the
 * indexes are made by the job migrations).
 *
 * @module
 */
import { attemptsExhaustedCode, attemptsExhaustedMessage } from "../store/worker_registry.ts";
import { jobAttemptHistoryLimit, type JobAttemptOutcome } from "../store/job_attempts.ts";
import { claimedColumns } from "./job_columns.ts";
import { type JobStatement, StatementParams } from "./statement.ts";

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
 * The `set` list of both claims: running, one more attempt, a new lease token, and the lease's
 * end (`now` plus the job name's lease, or the default) — the one place that end is computed.
 */
function claimSet(p: StatementParams, params: ClaimStatementParams, now: string): string {
  const leases = p.json(params.leases);
  const workerId = p.add(params.workerId ?? null);
  const defaultLeaseMs = p.add(params.defaultLeaseMs);
  return `status = 'running', attempts = j.attempts + 1, attempt_started_at = ${now},
      worker_id = ${workerId}::text,
      lease_token = gen_random_uuid()::text,
      lease_expires_at = ${now}::timestamptz + make_interval(secs =>
        coalesce((${leases} ->> j.name)::numeric, ${defaultLeaseMs}) / 1000.0)`;
}

/**
 * The new `attempt_history` of a row whose current attempt ended: the history with the attempt
 * appended (its number, outcome, error, start and end in ms; nulls left out), its oldest entry
 * dropped once it holds `jobAttemptHistoryLimit`. Reads the row's columns before the update.
 */
export function appendedHistory(
  p: StatementParams,
  ended: {
    outcome: JobAttemptOutcome;
    now: Date;
    errorCode?: string | undefined;
    errorMessage?: string | undefined;
  },
): string {
  const limit = p.add(jobAttemptHistoryLimit);
  const outcome = p.add(ended.outcome);
  const code = p.add(ended.errorCode ?? null);
  const message = p.add(ended.errorMessage ?? null);
  const endedAt = p.add(ended.now.getTime());
  return `(case when jsonb_array_length(attempt_history) >= ${limit}
      then attempt_history - 0 else attempt_history end)
    || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('attempt', attempts,
      'outcome', ${outcome}::text, 'errorCode', ${code}::text, 'errorMessage', ${message}::text,
      'startedAt', round(extract(epoch from attempt_started_at) * 1000)::bigint,
      'endedAt', ${endedAt}::bigint)))`;
}

/**
 * What a job whose lease ended becomes: dead with `ATTEMPTS_EXHAUSTED` (its code, message and
 * history), or waiting again (its history, the attempt `expired`).
 */
function endedLeaseEnds(
  p: StatementParams,
  now: Date,
): { code: string; message: string; died: string; expired: string } {
  const code = p.add(attemptsExhaustedCode);
  const message = p.add(attemptsExhaustedMessage);
  const died = appendedHistory(p, {
    outcome: "dead",
    now,
    errorCode: attemptsExhaustedCode,
    errorMessage: attemptsExhaustedMessage,
  });
  const expired = appendedHistory(p, { outcome: "expired", now });
  return { code, message, died, expired };
}

/**
 * Claims due waiting jobs of a queue, oldest `run_at` first: the short claim a busy queue uses.
 *
 * Locks: the picked rows, `for update skip locked` (rows another claim holds are passed over,
 * never waited for), then updates them. Index: `background_jobs_due` `(queue, run_at, id) where
 * status = 'waiting'` serves the pick in order, stopping at `limit`; the update joins on the
 * primary key.
 *
 * @param params The queue, limit, instant and leases.
 * @returns The statement: every column of each claimed job (`jobColumns`).
 */
export function claimDueJobs(params: ClaimStatementParams): JobStatement {
  const p = new StatementParams();
  const now = p.add(params.now);
  const set = claimSet(p, params, now);
  const queue = p.add(params.queue);
  const limit = p.add(params.limit);
  return p.statement(
    "claimDueJobs",
    `
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
    returning ${claimedColumns}`,
  );
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
 * @param params The queue, limit, instant and leases.
 * @returns The statement: every column of each claimed job (`jobColumns`), and `lease_ended`:
 * true for a job taken over from an attempt whose lease ended.
 */
export function claimJobsWithEndedLeases(params: ClaimStatementParams): JobStatement {
  const p = new StatementParams();
  const now = p.add(params.now);
  const set = claimSet(p, params, now);
  const queue = p.add(params.queue);
  const limit = p.add(params.limit);
  const { code, message, died, expired } = endedLeaseEnds(p, params.now);
  return p.statement(
    "claimJobsWithEndedLeases",
    `
    with exhausted as (
      select id from background_jobs
      where queue = ${queue} and status = 'running' and lease_expires_at <= ${now}
        and attempts >= max_attempts
      for update skip locked
    ), died as (
      update background_jobs j
      set status = 'dead', finished_at = ${now}, lease_token = null, lease_expires_at = null,
        last_error_code = ${code}, last_error_at = ${now},
        last_error_message = ${message}, attempt_history = ${died}
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
    returning ${claimedColumns}, picked.ended as lease_ended`,
  );
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
 * @param params The instant and the most jobs to rescue.
 * @returns The statement: a row `{ id, queue, status }` per rescued job.
 */
export function rescueJobs(params: { now: Date; limit: number }): JobStatement {
  const p = new StatementParams();
  const now = p.add(params.now);
  const limit = p.add(params.limit);
  const { code, message, died, expired } = endedLeaseEnds(p, params.now);
  return p.statement(
    "rescueJobs",
    `
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
    returning j.id, j.queue, j.status`,
  );
}
