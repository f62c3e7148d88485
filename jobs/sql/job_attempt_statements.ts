/**
 * The statements that end or extend a held job's attempt (complete, fail, release, report), and
 * the operators' writes (cancel, retry a dead job, purge). Each updates by the primary key.
 *
 * @module
 */
import type { TenantReach } from "../store/job_store.ts";
import { truncateAttemptMessage } from "../store/job_attempts.ts";
import { appendedHistory } from "./job_claim_statements.ts";
import { jobsChannel } from "./job_columns.ts";
import { reachCondition } from "./reach_condition.ts";
import { type JobStatement, StatementParams } from "./statement.ts";

/**
 * Marks a held job succeeded: its id and lease token match and it is running.
 *
 * Locks: the job's row (waits for a concurrent writer of it). Index: the primary key.
 *
 * @param params The job, its lease token and the instant.
 * @returns The statement: one row `{ ok }` when the job was held, else none.
 */
export function completeJob(params: { id: string; leaseToken: string; now: Date }): JobStatement {
  const p = new StatementParams();
  const now = p.add(params.now);
  const id = p.add(params.id);
  const leaseToken = p.add(params.leaseToken);
  return p.statement(
    "completeJob",
    `
    update background_jobs
    set status = 'succeeded', finished_at = ${now}, lease_token = null, lease_expires_at = null
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`,
  );
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
 * @param params The jobs with their lease tokens, and the instant.
 * @returns The statement: a row `{ id }` per job that was held.
 */
export function completeJobs(
  params: { jobs: readonly { id: string; leaseToken: string }[]; now: Date },
): JobStatement {
  const held: Record<string, string> = {};
  for (const job of params.jobs) held[job.id] = job.leaseToken;
  const p = new StatementParams();
  const now = p.add(params.now);
  const document = p.json(held);
  return p.statement(
    "completeJobs",
    `
    update background_jobs j
    set status = 'succeeded', finished_at = ${now}, lease_token = null, lease_expires_at = null
    where j.id = any(array(select jsonb_object_keys(${document})))
      and j.lease_token = ${document} ->> j.id and j.status = 'running'
    returning j.id`,
  );
}

/**
 * Records a held job's failed attempt: waiting again at `retryAt`, or dead without one; appends
 * it to `attempt_history` (`retried` or `dead`, the message cut by `truncateAttemptMessage`).
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param params The job, its lease token, the instant, the error, and when to retry if at all.
 * @returns The statement: one row `{ ok }` when the job was held, else none.
 */
export function failJob(
  params: {
    id: string;
    leaseToken: string;
    now: Date;
    errorCode: string;
    errorMessage: string;
    retryAt?: Date | undefined;
  },
): JobStatement {
  const { retryAt } = params;
  const p = new StatementParams();
  const history = appendedHistory(p, {
    outcome: retryAt === undefined ? "dead" : "retried",
    now: params.now,
    errorCode: params.errorCode,
    errorMessage: truncateAttemptMessage(params.errorMessage),
  });
  const status = p.add(retryAt === undefined ? "dead" : "waiting");
  const runAt = retryAt === undefined ? "run_at" : p.add(retryAt);
  const finishedAt = p.add(retryAt === undefined ? params.now : null);
  const errorCode = p.add(params.errorCode);
  const errorMessage = p.add(params.errorMessage);
  const now = p.add(params.now);
  const id = p.add(params.id);
  const leaseToken = p.add(params.leaseToken);
  return p.statement(
    "failJob",
    `
    update background_jobs
    set status = ${status}, run_at = ${runAt}, finished_at = ${finishedAt},
      lease_token = null, lease_expires_at = null,
      last_error_code = ${errorCode}, last_error_message = ${errorMessage}, last_error_at = ${now},
      attempt_history = ${history}
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`,
  );
}

/**
 * Gives a held job back, waiting, its attempt not counted.
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param params The job and its lease token.
 * @returns The statement: one row `{ ok }` when the job was held, else none.
 */
export function releaseJob(params: { id: string; leaseToken: string }): JobStatement {
  const p = new StatementParams();
  const id = p.add(params.id);
  const leaseToken = p.add(params.leaseToken);
  return p.statement(
    "releaseJob",
    `
    update background_jobs
    set status = 'waiting', attempts = attempts - 1, lease_token = null, lease_expires_at = null
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`,
  );
}

/**
 * Extends a held job's lease to `leaseEnds`; sets progress and the checkpoint when given (each
 * column kept as it is otherwise).
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param params The job, its lease token, the lease's new end, and the progress and checkpoint.
 * @returns The statement: one row `{ ok }` when the job was held, else none.
 */
export function reportJob(
  params: {
    id: string;
    leaseToken: string;
    leaseEnds: Date;
    progress?: { done: number; total?: number } | undefined;
    checkpoint?: unknown;
  },
): JobStatement {
  const { progress } = params;
  const p = new StatementParams();
  const leaseEnds = p.add(params.leaseEnds);
  const done = progress === undefined ? "progress_done" : p.add(progress.done);
  const total = progress === undefined ? "progress_total" : p.add(progress.total ?? null);
  const checkpoint = params.checkpoint === undefined ? "checkpoint" : p.json(params.checkpoint);
  const id = p.add(params.id);
  const leaseToken = p.add(params.leaseToken);
  return p.statement(
    "reportJob",
    `
    update background_jobs
    set lease_expires_at = ${leaseEnds}, progress_done = ${done}, progress_total = ${total},
      checkpoint = ${checkpoint}
    where id = ${id} and lease_token = ${leaseToken} and status = 'running'
    returning 1 as ok`,
  );
}

/**
 * Cancels a waiting or running job of the reach.
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param params The job, the reach and the instant.
 * @returns The statement: one row `{ ok }` when the job was cancelled, else none.
 */
export function cancelJob(params: { id: string; reach: TenantReach; now: Date }): JobStatement {
  const p = new StatementParams();
  const now = p.add(params.now);
  const id = p.add(params.id);
  const reach = reachCondition(p, params.reach);
  return p.statement(
    "cancelJob",
    `
    update background_jobs
    set status = 'cancelled', finished_at = ${now}, lease_token = null, lease_expires_at = null
    where id = ${id} and status in ('waiting', 'running') and ${reach}
    returning 1 as ok`,
  );
}

/**
 * Revives a dead job of the reach: waiting, due now, attempts back to zero; notifies its queue on
 * commit.
 *
 * Locks: the job's row. Index: the primary key.
 *
 * @param params The job, the reach and the instant.
 * @returns The statement: one row `{ ok }` when the job was revived, else none.
 */
export function retryDeadJob(
  params: { id: string; reach: TenantReach; now: Date },
): JobStatement {
  const p = new StatementParams();
  const now = p.add(params.now);
  const id = p.add(params.id);
  const reach = reachCondition(p, params.reach);
  const channel = p.add(jobsChannel);
  return p.statement(
    "retryDeadJob",
    `
    update background_jobs
    set status = 'waiting', attempts = 0, run_at = ${now}, finished_at = null
    where id = ${id} and status = 'dead' and ${reach}
    returning 1 as ok, pg_notify(${channel}, queue)`,
  );
}

/**
 * Deletes the finished jobs finished before an instant.
 *
 * Locks: the deleted rows. Index: `background_jobs_finished` `(finished_at) where finished_at is
 * not null`.
 *
 * @param before The instant.
 * @returns The statement: a row `{ ok }` per deleted job.
 */
export function purgeFinishedJobs(before: Date): JobStatement {
  const p = new StatementParams();
  const instant = p.add(before);
  return p.statement(
    "purgeFinishedJobs",
    `
    delete from background_jobs
    where finished_at < ${instant} and status in ('succeeded', 'dead', 'cancelled')
    returning 1 as ok`,
  );
}
