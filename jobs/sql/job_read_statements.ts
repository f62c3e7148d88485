/**
 * The statements that read jobs for the store's `find`, the operators' pages and counts, and the
 * tests and tools. None locks a row.
 *
 * @module
 */
import type { QueuedJobStatus } from "@kit/kernel";
import type { TenantReach } from "../store/job_store.ts";
import { allColumns, historyColumns, viewColumns } from "./job_columns.ts";
import { reachCondition } from "./reach_condition.ts";
import { type JobStatement, StatementParams } from "./statement.ts";

/**
 * What `find` reads of a job of the reach (never its payload). Index: the primary key.
 *
 * @param params The job and the reach.
 * @returns The statement: one row, or none.
 */
export function findJob(params: { id: string; reach: TenantReach }): JobStatement {
  const p = new StatementParams();
  const id = p.add(params.id);
  const reach = reachCondition(p, params.reach);
  return p.statement(
    "findJob",
    `
    select id, name, status, attempts, progress_done, progress_total, last_error_code, tenant_id,
      subject, run_at
    from background_jobs where id = ${id} and ${reach}`,
  );
}

/**
 * The jobs of the reach counted by queue and status. Reads the whole table (no index narrows
 * it).
 *
 * @param reach The reach.
 * @returns The statement: a row `{ queue, status, n }` per queue and status with jobs.
 */
export function countJobs(reach: TenantReach): JobStatement {
  const p = new StatementParams();
  const condition = reachCondition(p, reach);
  return p.statement(
    "countJobs",
    `
    select queue, status, count(*)::int as n from background_jobs
    where ${condition}
    group by queue, status`,
  );
}

/**
 * The activity of a window, of the reach: a row per queue, bucket and kind — jobs succeeded and
 * dead by `finished_at`, failed attempts by `last_error_at` (a job's last one). Indexes:
 * `background_jobs_finished` `(finished_at)` and `background_jobs_failed` `(last_error_at)`
 * (migration 3) bound each branch to the window.
 *
 * @param params The reach, the queue if any, the window's start and end, and a bucket's length.
 * @returns The statement: rows `{ queue, kind, bucket, n }`.
 */
export function jobActivity(
  params: {
    reach: TenantReach;
    queue?: string | undefined;
    since: Date;
    until: Date;
    bucketMs: number;
  },
): JobStatement {
  const p = new StatementParams();
  const since = p.add(params.since);
  const until = p.add(params.until);
  const bucketMs = p.add(params.bucketMs);
  const queue = p.add(params.queue ?? null);
  const reach = reachCondition(p, params.reach);
  const bucket = `floor(extract(epoch from (at - ${since}::timestamptz)) * 1000 / ${bucketMs})`;
  return p.statement(
    "jobActivity",
    `
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
    group by queue, kind, 3`,
  );
}

/** The filters of `pageJobs`; each one given narrows the page. */
export interface PageFilters {
  /** The tenants whose jobs the page may show. */
  readonly reach: TenantReach;
  /** Only this queue's jobs. */
  readonly queue?: string | undefined;
  /** Only the jobs of this status. */
  readonly status?: QueuedJobStatus | undefined;
  /** Only the jobs whose name starts so. */
  readonly namePrefix?: string | undefined;
  /** Only the jobs of this subject. */
  readonly subject?: string | undefined;
  /** Only this job. */
  readonly id?: string | undefined;
  /** Only the jobs whose last error has this code. */
  readonly errorCode?: string | undefined;
  /** The keyset cursor: the last job of the page before. */
  readonly after?: { readonly createdAt: Date; readonly id: string } | undefined;
}

/**
 * A page of the jobs of the reach, newest first, without payloads: keyset pagination on
 * `(created_at, id)`. Index: `background_jobs_page` `(created_at desc, id desc)`, or
 * `background_jobs_queue_page` `(queue, status, created_at desc, id desc)` for a queue and status
 * (migration 2).
 *
 * @param filters The reach, the filters and the cursor.
 * @param limit The most rows to answer.
 * @returns The statement: the view columns of each job.
 */
export function pageJobs(filters: PageFilters, limit: number): JobStatement {
  const { queue, status, namePrefix, subject, id, errorCode, after } = filters;
  const p = new StatementParams();
  const conditions = [
    reachCondition(p, filters.reach),
    ...(queue === undefined ? [] : [`queue = ${p.add(queue)}`]),
    ...(status === undefined ? [] : [`status = ${p.add(status)}`]),
    ...(namePrefix === undefined ? [] : [`starts_with(name, ${p.add(namePrefix)})`]),
    ...(subject === undefined ? [] : [`subject = ${p.add(subject)}`]),
    ...(id === undefined ? [] : [`id = ${p.add(id)}`]),
    ...(errorCode === undefined ? [] : [`last_error_code = ${p.add(errorCode)}`]),
    ...(after === undefined
      ? []
      : [`(created_at, id) < (${p.add(after.createdAt)}::timestamptz, ${p.add(after.id)})`]),
  ];
  const rows = p.add(limit);
  return p.statement(
    "pageJobs",
    `
    select ${viewColumns} from background_jobs
    where ${conditions.join(" and ")}
    order by created_at desc, id desc
    limit ${rows}`,
  );
}

/**
 * A job of the reach, without its payload, with its attempt history. Index: the primary key.
 *
 * @param params The job and the reach.
 * @returns The statement: the view columns of the job, `attempt_history` and
 * `attempt_started_at`, or no row.
 */
export function viewJob(params: { id: string; reach: TenantReach }): JobStatement {
  const p = new StatementParams();
  const id = p.add(params.id);
  const reach = reachCondition(p, params.reach);
  return p.statement(
    "viewJob",
    `
    select ${viewColumns}, ${historyColumns} from background_jobs
    where id = ${id} and ${reach}`,
  );
}

/**
 * Every job kept, of a queue and a status when given, oldest first (for tests and tools). Reads
 * and sorts the whole table.
 *
 * @param params The queue and the status, if any.
 * @returns The statement: every column of each job (`jobColumns`).
 */
export function listJobs(
  params: { queue?: string | undefined; status?: QueuedJobStatus | undefined },
): JobStatement {
  const p = new StatementParams();
  const queue = p.add(params.queue ?? null);
  const status = p.add(params.status ?? null);
  return p.statement(
    "listJobs",
    `
    select ${allColumns} from background_jobs
    where (${queue}::text is null or queue = ${queue})
      and (${status}::text is null or status = ${status})
    order by created_at, id`,
  );
}
