/**
 * The statements of retention (`JobStore.jobPrune`): each removes a bounded batch of one queue's
 * finished jobs of one status, oldest first, by age or beyond a count, locking with `skip locked`
 * so that pruners in many processes at once never wait on each other nor on a claim.
 *
 * @module
 */
import type { FinishedJobStatus } from "../store/job_retention.ts";
import { type JobStatement, StatementParams } from "./statement.ts";

/**
 * Deletes up to `limit` jobs of the queue and status that finished before an instant, oldest
 * first.
 *
 * Locks: `for update skip locked` on the picked rows (a row another pruner holds is left to it).
 * Index: `background_jobs_retention` `(queue, status, finished_at, id) where finished_at is not
 * null`: a range scan of the rows it deletes.
 *
 * @param params The queue, the status, the instant and the most jobs to delete.
 * @returns The statement: a row `{ ok }` per deleted job.
 */
export function pruneJobsFinishedBefore(
  params: { queue: string; status: FinishedJobStatus; before: Date; limit: number },
): JobStatement {
  const p = new StatementParams();
  const queue = p.add(params.queue);
  const status = p.add(params.status);
  const before = p.add(params.before);
  const limit = p.add(params.limit);
  return p.statement(
    "pruneJobsFinishedBefore",
    `
    with doomed as (
      select id from background_jobs
      where queue = ${queue} and status = ${status} and finished_at is not null
        and (queue, status, finished_at) < (${queue}, ${status}, ${before}::timestamptz)
      order by finished_at, id
      limit ${limit}
      for update skip locked
    )
    delete from background_jobs j using doomed where j.id = doomed.id
    returning 1 as ok`,
  );
}

/**
 * Deletes up to `limit` jobs of the queue and status beyond the `keep` that finished last (ties:
 * the greatest id stays), oldest first.
 *
 * Locks: `for update skip locked` on the picked rows; the bound (the job `keep` places after the
 * newest) is read without a lock, from the statement's snapshot: a job finishing meanwhile is kept
 * on top, never counted against the others. Index: `background_jobs_retention`: `keep` index
 * entries read backwards to find the bound, then a range scan of the rows it deletes.
 *
 * @param params The queue, the status, how many stay and the most jobs to delete.
 * @returns The statement: a row `{ ok }` per deleted job.
 */
export function pruneJobsBeyondCount(
  params: { queue: string; status: FinishedJobStatus; keep: number; limit: number },
): JobStatement {
  const p = new StatementParams();
  const queue = p.add(params.queue);
  const status = p.add(params.status);
  const keep = p.add(params.keep);
  const limit = p.add(params.limit);
  return p.statement(
    "pruneJobsBeyondCount",
    `
    with bound as materialized (
      select finished_at, id from background_jobs
      where queue = ${queue} and status = ${status} and finished_at is not null
      order by queue desc, status desc, finished_at desc, id desc
      offset ${keep} limit 1
    ), doomed as (
      select j.id from background_jobs j
      where j.queue = ${queue} and j.status = ${status} and j.finished_at is not null
        and (j.queue, j.status, j.finished_at, j.id)
          <= (select ${queue}, ${status}, finished_at, id from bound)
      order by j.finished_at, j.id
      limit ${limit}
      for update of j skip locked
    )
    delete from background_jobs j using doomed where j.id = doomed.id
    returning 1 as ok`,
  );
}
