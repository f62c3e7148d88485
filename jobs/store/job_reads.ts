import type { QueuedJobStatus } from "@kit/kernel";
import type { StoredJob, TenantReach } from "./job_store.ts";
import type { JobAttempt } from "./job_attempts.ts";

/** The most jobs one {@linkcode JobPageParams} may ask for; a larger `limit` is refused. */
export const jobPageMaxLimit = 200;

/**
 * A job as an operator sees it: everything a store keeps of it but its payload. `jobView` adds
 * its attempt history; pages of jobs leave it out.
 */
export type JobView = Omit<StoredJob, "payload"> & {
  /** Its last ended attempts, oldest first (`jobView` only; see `jobAttemptHistoryLimit`). */
  readonly attemptHistory?: readonly JobAttempt[];
};

/** The jobs of one queue by status, as {@linkcode JobCountsParams} answers them. */
export interface JobQueueCounts {
  /** The queue (the context). */
  readonly queue: string;
  /** Jobs waiting (due now or later). */
  readonly waiting: number;
  /** Jobs running under a lease. */
  readonly running: number;
  /** Jobs that succeeded (until purged). */
  readonly succeeded: number;
  /** Jobs dead (until revived or purged). */
  readonly dead: number;
  /** Jobs cancelled (until purged). */
  readonly cancelled: number;
}

/** The params of `JobStore.jobCounts`. */
export interface JobCountsParams {
  /** Only the jobs of the tenants it reaches are counted. */
  readonly reach: TenantReach;
}

/**
 * What a page of jobs may be narrowed to; the fields given must all match. `name` matches a
 * prefix of the job name (`scheduling.` matches every job of scheduling); the others match exactly.
 */
export interface JobSearch {
  /** A prefix of the job name. */
  readonly name?: string;
  /** The subject, exactly. */
  readonly subject?: string;
  /** The id, exactly. */
  readonly id?: string;
  /** The error code of the last failed attempt, exactly. */
  readonly errorCode?: string;
}

/** The params of `JobStore.jobPage`. */
export interface JobPageParams {
  /** Only the jobs of the tenants it reaches are answered. */
  readonly reach: TenantReach;
  /** Only this queue's jobs. */
  readonly queue?: string;
  /** Only jobs in this status. */
  readonly status?: QueuedJobStatus;
  /** Only jobs matching these fields. */
  readonly search?: JobSearch;
  /** The `next` of the page before; absent: the first page. */
  readonly after?: string;
  /** The most jobs to answer, 1 to {@linkcode jobPageMaxLimit}. */
  readonly limit: number;
}

/** A page of jobs, newest first (by creation, then id). */
export interface JobPage {
  /** The jobs, newest first. */
  readonly jobs: readonly JobView[];
  /**
   * The cursor of the next page, absent on the last. A store that scans a bounded number of
   * jobs per page (Redis) may answer fewer than `limit` jobs, even none, with a `next`.
   */
  readonly next?: string;
}

/** The position of a page's last job: keyset pagination on `(createdAt desc, id desc)`. */
export interface JobCursor {
  /** The creation time of the last job answered, in ms. */
  readonly createdAt: number;
  /** Its id. */
  readonly id: string;
}

/** A cursor that is not one a store answered (`jobPage` rejects with it). */
export class InvalidJobCursorError extends RangeError {
  /** The refusal of a cursor. */
  constructor() {
    super("The cursor is not one a page of jobs answered");
    this.name = "InvalidJobCursorError";
  }
}

/**
 * Encodes a cursor as opaque text (base64url of `[createdAt, id]`).
 *
 * @example
 * ```ts
 * import { decodeJobCursor, encodeJobCursor } from "@kit/jobs/store";
 * const next = encodeJobCursor({ createdAt: 0, id: "a" });
 * decodeJobCursor(next); // { createdAt: 0, id: "a" }
 * ```
 */
export function encodeJobCursor(cursor: JobCursor): string {
  const text = JSON.stringify([cursor.createdAt, cursor.id]);
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Decodes a cursor of {@linkcode encodeJobCursor}; throws {@linkcode InvalidJobCursorError} for
 * anything else. An edited cursor can only move the page: the reach still filters every job.
 */
export function decodeJobCursor(text: string): JobCursor {
  if (typeof text !== "string" || text.length > 400 || !/^[A-Za-z0-9_-]+$/.test(text)) {
    throw new InvalidJobCursorError();
  }
  let value: unknown;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    value = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    throw new InvalidJobCursorError();
  }
  if (
    !Array.isArray(value) || value.length !== 2 || !Number.isSafeInteger(value[0]) ||
    typeof value[1] !== "string" || value[1].length === 0 || value[1].length > 200
  ) {
    throw new InvalidJobCursorError();
  }
  return { createdAt: value[0] as number, id: value[1] as string };
}

/** Refuses a limit out of 1 to {@linkcode jobPageMaxLimit} (a store calls it first). */
export function checkJobPageLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > jobPageMaxLimit) {
    throw new RangeError(`A page of jobs takes a limit of 1 to ${jobPageMaxLimit}, got ${limit}`);
  }
}

/** Tells whether a job matches the search (the stores that filter in process use it). */
export function matchesJobSearch(job: JobView, search: JobSearch | undefined): boolean {
  if (search === undefined) return true;
  if (search.name !== undefined && !job.name.startsWith(search.name)) return false;
  if (search.subject !== undefined && job.subject !== search.subject) return false;
  if (search.id !== undefined && job.id !== search.id) return false;
  if (search.errorCode !== undefined && job.lastErrorCode !== search.errorCode) return false;
  return true;
}

/** Counts jobs by queue and status, queues sorted by name. */
export function countJobs(
  jobs: Iterable<{ readonly queue: string; readonly status: QueuedJobStatus }>,
): JobQueueCounts[] {
  const byQueue = new Map<string, Record<QueuedJobStatus, number>>();
  for (const job of jobs) {
    let counts = byQueue.get(job.queue);
    if (counts === undefined) {
      counts = { waiting: 0, running: 0, succeeded: 0, dead: 0, cancelled: 0 };
      byQueue.set(job.queue, counts);
    }
    counts[job.status] += 1;
  }
  return [...byQueue.keys()].sort().map((queue) => ({ queue, ...byQueue.get(queue)! }));
}

/** Drops the payload of a stored job; adds the attempt history when given. */
export function toJobView(job: StoredJob, attemptHistory?: readonly JobAttempt[]): JobView {
  const { payload: _payload, ...view } = job;
  return attemptHistory === undefined ? view : { ...view, attemptHistory };
}

/** The unit of `JobStore.jobActivity`'s instants and buckets: one minute, in ms. */
export const jobActivityMinuteMs = 60_000;

/** The longest window one {@linkcode JobActivityParams} may ask for: a day, in ms. */
export const jobActivityMaxWindowMs = 86_400_000;

/** The params of `JobStore.jobActivity`. */
export interface JobActivityParams {
  /** Only the jobs of the tenants it reaches are counted. */
  readonly reach: TenantReach;
  /** Only this queue's activity. */
  readonly queue?: string;
  /** The start of the first bucket: a whole minute. */
  readonly since: Date;
  /** The length of a bucket: a whole number of minutes. */
  readonly bucketMs: number;
  /** How many buckets, from 1; the window (`buckets × bucketMs`) spans at most a day. */
  readonly buckets: number;
}

/** What one bucket of time counts. */
export interface JobActivityBucket {
  /** The start of the bucket. */
  readonly start: Date;
  /** Jobs that succeeded in it. */
  readonly succeeded: number;
  /**
   * Failed attempts in it, those that made their job dead included. The stores that count from
   * the jobs they keep (in memory, PostgreSQL) count a job's last failed attempt only, and forget
   * purged jobs; Redis counts every failed attempt (a counter per minute, kept a day).
   */
  readonly failed: number;
  /** Jobs that died in it (their last attempt failed, or its lease ended). */
  readonly dead: number;
}

/** The activity of one queue: a bucket per interval of the window, oldest first. */
export interface JobQueueActivity {
  /** The queue (the context). */
  readonly queue: string;
  /** Every bucket of the window, oldest first (empty ones answered with zeros). */
  readonly buckets: readonly JobActivityBucket[];
}

/** What a job store counts of the activity of a window. */
export type JobActivityKind = "succeeded" | "failed" | "dead";

/**
 * Refuses the params of `jobActivity` a store cannot answer (a store calls it first): `since`
 * and `bucketMs` not whole minutes, `buckets` not a positive integer, a window longer than a day.
 *
 * @example
 * ```ts
 * import { checkJobActivityParams } from "@kit/jobs/store";
 * const since = new Date("2026-05-01T07:00:00Z");
 * checkJobActivityParams({ reach: {}, since, bucketMs: 60_000, buckets: 60 }); // the last hour
 * ```
 */
export function checkJobActivityParams(params: JobActivityParams): void {
  const since = params.since.getTime();
  const { bucketMs, buckets } = params;
  if (!Number.isSafeInteger(since) || since % jobActivityMinuteMs !== 0) {
    throw new RangeError(`Activity starts on a whole minute, got ${params.since.toISOString()}`);
  }
  if (!Number.isSafeInteger(bucketMs) || bucketMs <= 0 || bucketMs % jobActivityMinuteMs !== 0) {
    throw new RangeError(`An activity bucket is a whole number of minutes, got ${bucketMs} ms`);
  }
  if (
    !Number.isSafeInteger(buckets) || buckets < 1 || buckets * bucketMs > jobActivityMaxWindowMs
  ) {
    throw new RangeError(
      `Activity spans 1 bucket to a day (${jobActivityMaxWindowMs} ms), got ${buckets} of ${bucketMs} ms`,
    );
  }
}

/**
 * Sums counts into the buckets of the params, queues sorted by name; a queue with no count in
 * the window is left out. Counts outside the window, of another queue than `params.queue`, are
 * dropped (the reach is the caller's to apply).
 *
 * @example
 * ```ts
 * import { activityOf } from "@kit/jobs/store";
 * const since = new Date("2026-05-01T07:00:00Z");
 * const at = since.getTime() + 90_000; // in the second minute
 * activityOf({ reach: {}, since, bucketMs: 60_000, buckets: 2 }, [
 *   { queue: "billing", kind: "succeeded", at },
 * ]); // [{ queue: "billing", buckets: [{ start, succeeded: 0, ... }, { succeeded: 1, ... }] }]
 * ```
 */
export function activityOf(
  params: JobActivityParams,
  counts: Iterable<{ queue: string; kind: JobActivityKind; at: number; n?: number }>,
): JobQueueActivity[] {
  const since = params.since.getTime();
  const byQueue = new Map<string, { succeeded: number; failed: number; dead: number }[]>();
  for (const { queue, kind, at, n = 1 } of counts) {
    if (params.queue !== undefined && queue !== params.queue) continue;
    const index = Math.floor((at - since) / params.bucketMs);
    if (index < 0 || index >= params.buckets) continue;
    let buckets = byQueue.get(queue);
    if (buckets === undefined) {
      buckets = Array.from(
        { length: params.buckets },
        () => ({ succeeded: 0, failed: 0, dead: 0 }),
      );
      byQueue.set(queue, buckets);
    }
    buckets[index]![kind] += n;
  }
  return [...byQueue.keys()].sort().map((queue) => ({
    queue,
    buckets: byQueue.get(queue)!.map((bucket, i) => ({
      start: new Date(since + i * params.bucketMs),
      ...bucket,
    })),
  }));
}
