import type { QueuedJobStatus } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import type { EnqueueResult, JsonValue, QueuedJob } from "@kit/kernel/types";
import {
  type ClaimedJob,
  type JobStore,
  type NewJob,
  reaches,
  type ReportOutcome,
  type StoredJob,
  type TenantReach,
  toQueuedJob,
} from "./job_store.ts";
import {
  activityOf,
  checkJobActivityParams,
  checkJobPageLimit,
  countJobs,
  decodeJobCursor,
  encodeJobCursor,
  type JobActivityKind,
  type JobActivityParams,
  type JobCountsParams,
  type JobPage,
  type JobPageParams,
  type JobQueueActivity,
  type JobQueueCounts,
  type JobView,
  matchesJobSearch,
  toJobView,
} from "./job_reads.ts";
import {
  appendAttempt,
  type JobAttempt,
  type JobAttemptOutcome,
  truncateAttemptMessage,
} from "./job_attempts.ts";
import type {
  JobClaimParams,
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
} from "./job_store.ts";
import {
  attemptsExhaustedCode,
  attemptsExhaustedMessage,
  checkWorkerHeartbeat,
  type JobRescueParams,
  type LiveWorker,
  type RescuedJob,
  type WorkerHeartbeatParams,
} from "./worker_registry.ts";
import { checkJobPruneParams, type JobPruneParams } from "./job_retention.ts";

interface Row {
  job: NewJob;
  status: QueuedJobStatus;
  attempts: number;
  runAt: number;
  progress: { done: number; total?: number };
  checkpoint?: JsonValue;
  lastErrorCode?: string;
  lastErrorMessage?: string;
  lastErrorAt?: number;
  leaseToken?: string;
  leaseExpiresAt?: number;
  finishedAt?: number;
  startedAt?: number;
  workerId?: string;
  history: JobAttempt[];
}

/**
 * Jobs in process memory. Writes wait for the unit of work to commit (`whenCommitted`) and run
 * at once outside one. Seen by no other process; lost at restart.
 */
export class InMemoryJobStore implements JobStore {
  /** Writes do not join the transaction: they wait for the commit. */
  readonly sharesTransaction = false;
  readonly #rows = new Map<string, Row>();
  readonly #keys = new Map<string, string>();
  readonly #workers = new Map<string, LiveWorker>();

  /**
   * Inserts after commit (at once outside a unit of work); answers the kept id with
   * `duplicate: true` for a key kept already, looked up when called.
   */
  async jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult> {
    const [result] = await this.jobInsertMany({ jobs: [params.job], unit: params.unit });
    return result!;
  }

  /**
   * Inserts many jobs after commit (at once outside a unit of work), each kept once per
   * idempotency key: a key kept already, or taken earlier in the batch, answers the kept id with
   * `duplicate: true`. Of two units that staged one key, the first to commit keeps it.
   */
  jobInsertMany(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork | undefined },
  ): Promise<readonly EnqueueResult[]> {
    const taken = new Map<string, string>();
    const staged: NewJob[] = [];
    const results = params.jobs.map((job): EnqueueResult => {
      const key = keyOf(job);
      const kept = key === undefined ? undefined : this.#keys.get(key) ?? taken.get(key);
      if (kept !== undefined) return { id: kept, duplicate: true };
      if (key !== undefined) taken.set(key, job.id);
      staged.push(job);
      return { id: job.id };
    });
    const write = () => {
      for (const job of staged) this.#write(job);
    };
    if (params.unit) params.unit.whenCommitted(write);
    else write();
    return Promise.resolve(results);
  }

  #write(job: NewJob): void {
    const key = keyOf(job);
    if (key !== undefined) {
      if (this.#keys.has(key)) return;
      this.#keys.set(key, job.id);
    }
    this.#rows.set(job.id, {
      job,
      status: "waiting",
      attempts: 0,
      runAt: job.runAt.getTime(),
      progress: { done: 0 },
      history: [],
    });
  }

  /** Claims due jobs of the queue, and jobs whose lease ended, earliest due first. */
  jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    const now = params.now.getTime();
    const candidates = [...this.#rows.values()]
      .filter((row) =>
        row.job.queue === params.queue &&
        ((row.status === "waiting" && row.runAt <= now) ||
          (row.status === "running" && (row.leaseExpiresAt ?? 0) <= now))
      )
      .sort((a, b) => a.runAt - b.runAt || compare(a.job.id, b.job.id));
    const claimed: ClaimedJob[] = [];
    for (const row of candidates) {
      if (claimed.length >= params.limit) break;
      if (row.status === "running" && row.attempts >= row.job.maxAttempts) {
        this.#exhausted(row, now);
        continue;
      }
      const leaseEnded = row.status === "running";
      if (leaseEnded) this.#ended(row, "expired", now);
      row.status = "running";
      row.attempts += 1;
      row.startedAt = now;
      row.leaseToken = crypto.randomUUID();
      row.leaseExpiresAt = now + (params.leases[row.job.name] ?? params.defaultLeaseMs);
      if (params.workerId === undefined) delete row.workerId;
      else row.workerId = params.workerId;
      claimed.push({
        ...this.#stored(row),
        attempt: row.attempts,
        leaseToken: row.leaseToken,
        ...(leaseEnded ? { leaseEnded: true } : {}),
      });
    }
    return Promise.resolve(claimed);
  }

  /** Takes back running jobs whose lease ended, oldest lease first: waiting again, or dead. */
  jobRescue(params: JobRescueParams): Promise<readonly RescuedJob[]> {
    const now = params.now.getTime();
    const ended = [...this.#rows.values()]
      .filter((row) => row.status === "running" && (row.leaseExpiresAt ?? 0) <= now)
      .sort((a, b) =>
        (a.leaseExpiresAt ?? 0) - (b.leaseExpiresAt ?? 0) || compare(a.job.id, b.job.id)
      )
      .slice(0, params.limit);
    return Promise.resolve(ended.map((row): RescuedJob => {
      if (row.attempts >= row.job.maxAttempts) {
        this.#exhausted(row, now);
        return { id: row.job.id, queue: row.job.queue, outcome: "dead" };
      }
      this.#ended(row, "expired", now);
      row.status = "waiting";
      delete row.leaseToken;
      delete row.leaseExpiresAt;
      return { id: row.job.id, queue: row.job.queue, outcome: "waiting" };
    }));
  }

  /** Registers the worker or refreshes it; forgets the registrations that expired. */
  workerHeartbeat(params: WorkerHeartbeatParams): Promise<void> {
    try {
      checkWorkerHeartbeat(params);
    } catch (error) {
      return Promise.reject(error);
    }
    const now = params.now.getTime();
    for (const [id, worker] of this.#workers) {
      if (worker.expiresAt.getTime() <= now) this.#workers.delete(id);
    }
    const { id, host, pid, queues, startedAt } = params.worker;
    this.#workers.set(id, {
      id,
      ...(host === undefined ? {} : { host }),
      ...(pid === undefined ? {} : { pid }),
      queues: [...queues].sort(),
      startedAt: new Date(startedAt.getTime()),
      heartbeatAt: new Date(now),
      expiresAt: new Date(now + params.ttlMs),
    });
    return Promise.resolve();
  }

  /** Forgets the worker. */
  workerDeregister(params: { id: string }): Promise<void> {
    this.#workers.delete(params.id);
    return Promise.resolve();
  }

  /** The workers live at `now`, oldest first. */
  workerList(params: { now: Date }): Promise<readonly LiveWorker[]> {
    const now = params.now.getTime();
    return Promise.resolve(
      [...this.#workers.values()]
        .filter((worker) => worker.expiresAt.getTime() > now)
        .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || compare(a.id, b.id))
        .map((worker) => ({ ...worker, queues: [...worker.queues] })),
    );
  }

  /** Marks the attempt's job succeeded. */
  jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const row = this.#held(params.id, params.leaseToken);
    if (row === undefined) return Promise.resolve(false);
    this.#ended(row, "succeeded", params.now.getTime());
    this.#finish(row, "succeeded", params.now.getTime());
    return Promise.resolve(true);
  }

  /** Marks many held jobs succeeded; answers, in order, which were held. */
  async jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    const held: boolean[] = [];
    for (const job of params.jobs) held.push(await this.jobComplete({ ...job, now: params.now }));
    return held;
  }

  /** Records a failed attempt: waiting again, or dead. */
  jobFail(params: JobFailParams): Promise<boolean> {
    const row = this.#held(params.id, params.leaseToken);
    if (row === undefined) return Promise.resolve(false);
    row.lastErrorCode = params.errorCode;
    row.lastErrorMessage = params.errorMessage;
    row.lastErrorAt = params.now.getTime();
    const outcome = params.retryAt === undefined ? "dead" : "retried";
    this.#ended(row, outcome, row.lastErrorAt, params.errorCode, params.errorMessage);
    if (params.retryAt === undefined) {
      this.#finish(row, "dead", params.now.getTime());
    } else {
      row.status = "waiting";
      row.runAt = params.retryAt.getTime();
      delete row.leaseToken;
      delete row.leaseExpiresAt;
    }
    return Promise.resolve(true);
  }

  /** Gives the job back, its attempt not counted. */
  jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean> {
    const row = this.#held(params.id, params.leaseToken);
    if (row === undefined) return Promise.resolve(false);
    row.status = "waiting";
    row.attempts -= 1;
    delete row.leaseToken;
    delete row.leaseExpiresAt;
    return Promise.resolve(true);
  }

  /** Extends the lease and keeps progress or a checkpoint. */
  jobReport(params: JobReportParams): Promise<ReportOutcome> {
    const row = this.#held(params.id, params.leaseToken);
    if (row === undefined) return Promise.resolve("stale");
    row.leaseExpiresAt = params.now.getTime() + params.leaseMs;
    if (params.progress !== undefined) row.progress = { ...params.progress };
    if (params.checkpoint !== undefined) {
      const checkpoint = structuredClone(params.checkpoint);
      const token = params.leaseToken;
      const save = () => {
        if (this.#rows.get(params.id)?.leaseToken === token) row.checkpoint = checkpoint;
      };
      if (params.unit) params.unit.whenCommitted(save);
      else save();
    }
    return Promise.resolve("ok");
  }

  /** Cancels a waiting or running job of the reach, after commit. */
  jobCancel(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    const row = this.#reachable(params.id, params.reach);
    if (row === undefined || (row.status !== "waiting" && row.status !== "running")) {
      return Promise.resolve(false);
    }
    const cancel = () => {
      if (row.status === "waiting" || row.status === "running") {
        this.#finish(row, "cancelled", params.now.getTime());
      }
    };
    if (params.unit) params.unit.whenCommitted(cancel);
    else cancel();
    return Promise.resolve(true);
  }

  /** The job, never its payload. */
  jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined> {
    const row = this.#reachable(params.id, params.reach);
    return Promise.resolve(row === undefined ? undefined : toQueuedJob(this.#stored(row)));
  }

  /** Revives a dead job, after commit. */
  jobRetryDead(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean> {
    const row = this.#reachable(params.id, params.reach);
    if (row === undefined || row.status !== "dead") return Promise.resolve(false);
    const revive = () => {
      if (row.status !== "dead") return;
      row.status = "waiting";
      row.attempts = 0;
      row.runAt = params.now.getTime();
      delete row.finishedAt;
    };
    if (params.unit) params.unit.whenCommitted(revive);
    else revive();
    return Promise.resolve(true);
  }

  /** Deletes finished jobs finished before the instant. */
  jobPurgeFinished(params: { before: Date }): Promise<number> {
    const before = params.before.getTime();
    let purged = 0;
    for (const [id, row] of this.#rows) {
      if (row.finishedAt !== undefined && row.finishedAt < before) {
        this.#rows.delete(id);
        this.#forgetKey(row.job);
        purged++;
      }
    }
    return Promise.resolve(purged);
  }

  /** Removes up to `limit` finished jobs of the queue and status: too old, then beyond `keep`. */
  jobPrune(params: JobPruneParams): Promise<number> {
    try {
      checkJobPruneParams(params);
    } catch (error) {
      return Promise.reject(error);
    }
    const newestFirst = [...this.#rows.values()]
      .filter((row) => row.job.queue === params.queue && row.status === params.status)
      .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0) || compare(b.job.id, a.job.id));
    const before = params.finishedBefore?.getTime() ?? -Infinity;
    const keep = params.keep ?? Infinity;
    const doomed = newestFirst.filter((row, rank) => (row.finishedAt ?? 0) < before || rank >= keep)
      .reverse()
      .slice(0, params.limit);
    for (const row of doomed) {
      this.#rows.delete(row.job.id);
      this.#forgetKey(row.job);
    }
    return Promise.resolve(doomed.length);
  }

  /** The jobs of the reach, counted by queue and status. */
  jobCounts(params: JobCountsParams): Promise<readonly JobQueueCounts[]> {
    return Promise.resolve(
      countJobs(
        [...this.#rows.values()]
          .filter((row) => reaches(params.reach, row.job.tenantId))
          .map((row) => ({ queue: row.job.queue, status: row.status })),
      ),
    );
  }

  /** A page of the jobs of the reach, newest first, after the cursor. */
  jobPage(params: JobPageParams): Promise<JobPage> {
    try {
      checkJobPageLimit(params.limit);
      const after = params.after === undefined ? undefined : decodeJobCursor(params.after);
      const matching = [...this.#rows.values()]
        .filter((row) =>
          reaches(params.reach, row.job.tenantId) &&
          (params.queue === undefined || row.job.queue === params.queue) &&
          (params.status === undefined || row.status === params.status) &&
          (after === undefined || newerFirst(row.job, after) > 0)
        )
        .map((row) => toJobView(this.#stored(row)))
        .filter((job) => matchesJobSearch(job, params.search))
        .sort((a, b) => newerFirst(a, { createdAt: b.createdAt.getTime(), id: b.id }))
        .slice(0, params.limit + 1);
      const jobs = matching.slice(0, params.limit);
      const last = jobs.at(-1);
      return Promise.resolve(
        matching.length > params.limit && last !== undefined
          ? { jobs, next: encodeJobCursor({ createdAt: last.createdAt.getTime(), id: last.id }) }
          : { jobs },
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The activity of the jobs of the reach kept now, counted from their finish and error times. */
  jobActivity(params: JobActivityParams): Promise<readonly JobQueueActivity[]> {
    try {
      checkJobActivityParams(params);
    } catch (error) {
      return Promise.reject(error);
    }
    const counts: { queue: string; kind: JobActivityKind; at: number }[] = [];
    for (const row of this.#rows.values()) {
      if (!reaches(params.reach, row.job.tenantId)) continue;
      const queue = row.job.queue;
      if (row.lastErrorAt !== undefined) {
        counts.push({ queue, kind: "failed", at: row.lastErrorAt });
      }
      if (row.finishedAt !== undefined && (row.status === "succeeded" || row.status === "dead")) {
        counts.push({ queue, kind: row.status, at: row.finishedAt });
      }
    }
    return Promise.resolve(activityOf(params, counts));
  }

  /** The job of the reach, everything but its payload. */
  jobView(params: { id: string; reach: TenantReach }): Promise<JobView | undefined> {
    const row = this.#reachable(params.id, params.reach);
    return Promise.resolve(
      row === undefined ? undefined : toJobView(this.#stored(row), [...row.history]),
    );
  }

  /** Every job kept, oldest first. */
  jobList(params: { queue?: string; status?: QueuedJobStatus } = {}): Promise<StoredJob[]> {
    return Promise.resolve(
      [...this.#rows.values()]
        .filter((r) => params.queue === undefined || r.job.queue === params.queue)
        .filter((r) => params.status === undefined || r.status === params.status)
        .sort((a, b) =>
          a.job.createdAt.getTime() - b.job.createdAt.getTime() || compare(a.job.id, b.job.id)
        )
        .map((r) => this.#stored(r)),
    );
  }

  /** The kept jobs, payload included (the testing view: `application.backgroundJobs.store.list()`). */
  list(): Promise<StoredJob[]> {
    return this.jobList();
  }

  #held(id: string, leaseToken: string): Row | undefined {
    const row = this.#rows.get(id);
    return row !== undefined && row.status === "running" && row.leaseToken === leaseToken
      ? row
      : undefined;
  }

  #reachable(id: string, reach: TenantReach): Row | undefined {
    const row = this.#rows.get(id);
    return row !== undefined && reaches(reach, row.job.tenantId) ? row : undefined;
  }

  #finish(row: Row, status: "succeeded" | "dead" | "cancelled", now: number): void {
    row.status = status;
    row.finishedAt = now;
    delete row.leaseToken;
    delete row.leaseExpiresAt;
  }

  #ended(
    row: Row,
    outcome: JobAttemptOutcome,
    now: number,
    errorCode?: string,
    errorMessage?: string,
  ): void {
    row.history = appendAttempt(row.history, {
      attempt: row.attempts,
      outcome,
      ...(errorCode === undefined ? {} : { errorCode }),
      ...(errorMessage === undefined ? {} : { errorMessage: truncateAttemptMessage(errorMessage) }),
      ...(row.startedAt === undefined ? {} : { startedAt: new Date(row.startedAt) }),
      endedAt: new Date(now),
    });
  }

  /** Ends a job whose last attempt's lease ended: dead with `ATTEMPTS_EXHAUSTED`. */
  #exhausted(row: Row, now: number): void {
    this.#finish(row, "dead", now);
    row.lastErrorCode = attemptsExhaustedCode;
    row.lastErrorMessage = attemptsExhaustedMessage;
    row.lastErrorAt = now;
    this.#ended(row, "dead", now, row.lastErrorCode, row.lastErrorMessage);
  }

  #forgetKey(job: NewJob): void {
    const key = keyOf(job);
    if (key !== undefined && this.#keys.get(key) === job.id) this.#keys.delete(key);
  }

  #stored(row: Row): StoredJob {
    return {
      ...row.job,
      status: row.status,
      attempts: row.attempts,
      runAt: new Date(row.runAt),
      progress: { ...row.progress },
      ...(row.checkpoint === undefined ? {} : { checkpoint: structuredClone(row.checkpoint) }),
      ...(row.lastErrorCode === undefined ? {} : { lastErrorCode: row.lastErrorCode }),
      ...(row.lastErrorAt === undefined ? {} : { lastErrorAt: new Date(row.lastErrorAt) }),
      ...(row.finishedAt === undefined ? {} : { finishedAt: new Date(row.finishedAt) }),
      ...(row.workerId === undefined ? {} : { workerId: row.workerId }),
    };
  }
}

/** The job's idempotency key, unique per name and tenant; undefined without one. */
function keyOf(job: NewJob): string | undefined {
  return job.idempotencyKey === undefined
    ? undefined
    : `${job.name}\u0000${job.tenantId ?? ""}\u0000${job.idempotencyKey}`;
}

/** Positive when the job comes after the cursor in newest-first order. */
function newerFirst(
  job: { createdAt: Date; id: string },
  cursor: { createdAt: number; id: string },
): number {
  return cursor.createdAt - job.createdAt.getTime() || compare(cursor.id, job.id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
