import type { Actor, QueuedJobStatus } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import type { EnqueueResult, JsonValue, QueuedJob } from "@kit/kernel/types";
import type {
  JobActivityParams,
  JobCountsParams,
  JobPage,
  JobPageParams,
  JobQueueActivity,
  JobQueueCounts,
  JobView,
} from "./job_reads.ts";
import type {
  JobRescueParams,
  LiveWorker,
  RescuedJob,
  WorkerHeartbeatParams,
} from "./worker_registry.ts";
import type { JobPruneParams } from "./job_retention.ts";

/** A job to insert, built by the queue from `enqueue`. */
export interface NewJob {
  /** The id (UUID v7). */
  readonly id: string;
  /** `<context>.<job-name>`. */
  readonly name: string;
  /** The queue: the context. */
  readonly queue: string;
  /** The payload (JSON). */
  readonly payload: JsonValue;
  /** The enqueuing actor, as a snapshot. */
  readonly actor: Actor;
  /** The tenant of the enqueuing work, if any. */
  readonly tenantId?: string;
  /** The correlation of the enqueuing work. */
  readonly correlationId: string;
  /** The W3C traceparent of the enqueuing span, when tracing is on. */
  readonly traceparent?: string;
  /** What the job works on. */
  readonly subject?: string;
  /** Unique per name and tenant while the job is kept. */
  readonly idempotencyKey?: string;
  /** Attempts before the job dies. */
  readonly maxAttempts: number;
  /** Not before. */
  readonly runAt: Date;
  /** When it was enqueued. */
  readonly createdAt: Date;
}

/** A job as a store keeps it. */
export interface StoredJob extends NewJob {
  /** The status. */
  readonly status: QueuedJobStatus;
  /** Attempts started so far. */
  readonly attempts: number;
  /** The last reported progress. */
  readonly progress: { readonly done: number; readonly total?: number };
  /** The last saved checkpoint. */
  readonly checkpoint?: JsonValue;
  /** The error code of the last failed attempt. */
  readonly lastErrorCode?: string;
  /** When the last failed attempt failed (its lease ended, for `ATTEMPTS_EXHAUSTED`). */
  readonly lastErrorAt?: Date;
  /** When the job succeeded, died or was cancelled. */
  readonly finishedAt?: Date;
  /** The worker that holds it (running) or last held it, when its claim named one. */
  readonly workerId?: string;
}

/** A job claimed by a worker: it holds the job until its lease ends. */
export interface ClaimedJob extends StoredJob {
  /** The number of this attempt, from 1. */
  readonly attempt: number;
  /** Names this attempt in every report; a report with another token is stale. */
  readonly leaseToken: string;
  /**
   * True when the claim took the job over from an attempt whose lease ended (its worker died or
   * outran the lease); absent otherwise. Workers count these in `kit.jobs.leases.expired`.
   */
  readonly leaseEnded?: true;
}

/** Which tenants' jobs the work under way reaches: its own and the elevated ones; all without a tenant. */
export interface TenantReach {
  /** The tenant of the work, if any. */
  readonly tenantId?: string;
  /** Tenants an elevation names. */
  readonly elevatedTenants?: readonly string[];
}

/** The params of {@linkcode JobStore.jobClaim}. */
export interface JobClaimParams {
  /** The queue (context) to claim from. */
  readonly queue: string;
  /** The most jobs to claim. */
  readonly limit: number;
  /** The time of the claim. */
  readonly now: Date;
  /** The lease of a claim by job name, in ms. */
  readonly leases: Readonly<Record<string, number>>;
  /** The lease of a job name not in `leases`, in ms. */
  readonly defaultLeaseMs: number;
  /** The worker claiming: its id is kept with each job it holds (`StoredJob.workerId`). */
  readonly workerId?: string;
}

/** The params of {@linkcode JobStore.jobCompleteMany}. */
export interface JobCompleteManyParams {
  /** The attempts, by job id and lease token. */
  readonly jobs: readonly { readonly id: string; readonly leaseToken: string }[];
  /** The time of completion. */
  readonly now: Date;
}

/** The params of {@linkcode JobStore.jobFail}. */
export interface JobFailParams {
  /** The job. */
  readonly id: string;
  /** The attempt's lease token. */
  readonly leaseToken: string;
  /** The time of the failure. */
  readonly now: Date;
  /** The error code kept with the job. */
  readonly errorCode: string;
  /** The error message kept with the job. */
  readonly errorMessage: string;
  /** When to retry; absent: the job dies. */
  readonly retryAt?: Date;
}

/** The params of {@linkcode JobStore.jobReport}. */
export interface JobReportParams {
  /** The job. */
  readonly id: string;
  /** The attempt's lease token. */
  readonly leaseToken: string;
  /** The time of the report. */
  readonly now: Date;
  /** The lease to extend to, from now, in ms. */
  readonly leaseMs: number;
  /** Progress to keep. */
  readonly progress?: { readonly done: number; readonly total?: number };
  /** A checkpoint to keep. */
  readonly checkpoint?: JsonValue;
  /** The unit of work of the step saving the checkpoint. */
  readonly unit?: UnitOfWork;
}

/** What a report to the store answers. */
export type ReportOutcome = "ok" | "stale";

/**
 * The driver interface every job store implements (River's shape: one params object per method,
 * entity-first names). Every method that changes a claimed job names its attempt by lease token
 * and answers false (or `stale`) when the attempt no longer holds the job.
 */
export interface JobStore {
  /** True when writes join the caller's transaction; false when they wait for the commit. */
  readonly sharesTransaction: boolean;
  /**
   * Inserts a job, in the unit of work when the store shares the transaction (else after it
   * commits); answers the existing id with `duplicate: true` when the idempotency key is kept.
   * A store that writes after commit looks the key up when called, so that a key kept already
   * answers its job's id (which `jobFind` sees) even inside a unit of work; of two units that
   * staged one key before either committed, each is answered its own id and the first to commit
   * keeps the key.
   */
  jobInsert(params: { job: NewJob; unit?: UnitOfWork }): Promise<EnqueueResult>;
  /**
   * Inserts many jobs in one round trip, with the same rules as `jobInsert`; answers their
   * results in order. Stores that leave it out insert one by one.
   */
  jobInsertMany?(
    params: { jobs: readonly NewJob[]; unit?: UnitOfWork },
  ): Promise<readonly EnqueueResult[]>;
  /**
   * Claims up to `limit` jobs of the queue, earliest due first: due waiting jobs, and running jobs
   * whose lease ended (claimed again with one attempt more, or dead with `ATTEMPTS_EXHAUSTED`
   * when their last attempt was used). Each claim counts one attempt.
   */
  jobClaim(params: JobClaimParams): Promise<ClaimedJob[]>;
  /** Marks the attempt's job `succeeded`. */
  jobComplete(params: { id: string; leaseToken: string; now: Date }): Promise<boolean>;
  /**
   * Marks many attempts' jobs `succeeded` in one round trip; answers, in order, whether each
   * attempt still held its job. Stores that leave it out are completed one by one.
   */
  jobCompleteMany?(params: JobCompleteManyParams): Promise<readonly boolean[]>;
  /**
   * Records a failed attempt: waiting again at `retryAt`, or `dead` when `retryAt` is absent.
   */
  jobFail(params: JobFailParams): Promise<boolean>;
  /** Gives the job back uncounted (worker stop): waiting, its attempt not counted. */
  jobRelease(params: { id: string; leaseToken: string; now: Date }): Promise<boolean>;
  /**
   * Extends the lease (a heartbeat), storing progress or a checkpoint when given; a checkpoint
   * given with a unit of work is written in it on stores that share the transaction.
   */
  jobReport(params: JobReportParams): Promise<ReportOutcome>;
  /** Cancels a waiting or running job the reach covers (after commit when not sharing). */
  jobCancel(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean>;
  /** The job, never its payload, when the reach covers it. */
  jobFind(params: { id: string; reach: TenantReach }): Promise<QueuedJob | undefined>;
  /** Revives a dead job: waiting, due now, attempts back to zero. */
  jobRetryDead(
    params: { id: string; reach: TenantReach; now: Date; unit?: UnitOfWork },
  ): Promise<boolean>;
  /** Deletes succeeded, dead and cancelled jobs finished before the instant; answers how many. */
  jobPurgeFinished(params: { before: Date }): Promise<number>;
  /** The jobs the reach covers, counted by queue and status, queues sorted by name (operators). */
  jobCounts(params: JobCountsParams): Promise<readonly JobQueueCounts[]>;
  /**
   * A page of the jobs the reach covers, newest first (creation time, then id), never their
   * payload: keyset pagination, so jobs inserted between two pages neither repeat nor hide one.
   * Rejects a `limit` out of 1 to `jobPageMaxLimit` (`RangeError`) and a cursor it did not answer
   * (`InvalidJobCursorError`).
   */
  jobPage(params: JobPageParams): Promise<JobPage>;
  /**
   * What the queues did in a window of time, bucket by bucket: jobs succeeded, attempts failed,
   * jobs dead, of the jobs the reach covers (operators' charts). Rejects params out of bounds
   * (`RangeError`, see `checkJobActivityParams`). Queues without activity are left out.
   */
  jobActivity(params: JobActivityParams): Promise<readonly JobQueueActivity[]>;
  /**
   * The job, everything kept but its payload, when the reach covers it (operators), with its
   * attempt history: the last `jobAttemptHistoryLimit` attempts that ended (succeeded, failed,
   * lease ended), oldest first, forgotten with the job when it is purged.
   */
  jobView(params: { id: string; reach: TenantReach }): Promise<JobView | undefined>;
  /** Every job kept, payload included, oldest first (tests and operators). */
  jobList(params?: { queue?: string; status?: QueuedJobStatus }): Promise<StoredJob[]>;
  /**
   * Registers the worker, or refreshes its registration: it is live until `now + ttlMs` unless
   * it beats again. Registrations that expired may be forgotten at any heartbeat.
   */
  workerHeartbeat?(params: WorkerHeartbeatParams): Promise<void>;
  /** Forgets a worker (it stopped); nothing when it is not registered. */
  workerDeregister?(params: { id: string }): Promise<void>;
  /** The workers whose registration has not expired at `now`, oldest first (start, then id). */
  workerList?(params: { now: Date }): Promise<readonly LiveWorker[]>;
  /**
   * Takes back, whatever their queue, up to `limit` running jobs whose lease ended at or before
   * `now`, as the claim does: waiting again (the attempt recorded as `expired`, counted, its due
   * time kept) or dead with `ATTEMPTS_EXHAUSTED` on their last attempt. Safe to run from many
   * processes at once: each job is rescued once. Answers the jobs rescued.
   */
  jobRescue?(params: JobRescueParams): Promise<readonly RescuedJob[]>;
  /**
   * Removes, with their attempt history and idempotency keys, up to `limit` finished jobs of one
   * queue and status, oldest first: those finished before `finishedBefore` and those beyond the
   * `keep` that finished last; answers how many it removed. Never a waiting or running job, never another
   * queue's. Safe to run from many processes at once: each job is removed once, and no call waits
   * on another's rows (retention; see the worker's `Pruner`). Rejects bad params (`RangeError`,
   * see `checkJobPruneParams`).
   */
  jobPrune?(params: JobPruneParams): Promise<number>;
  /**
   * Calls `onJob(queue)` when another process commits a job (Postgres LISTEN/NOTIFY); answers
   * the function that stops listening. Stores that cannot tell leave it out: workers poll.
   */
  jobListen?(onJob: (queue: string) => void): Promise<() => Promise<void>>;
}

/** Tells whether the reach covers a job of the tenant. */
export function reaches(reach: TenantReach, tenantId: string | undefined): boolean {
  if (reach.tenantId === undefined) return true;
  if (tenantId === undefined) return false;
  return reach.tenantId === tenantId || (reach.elevatedTenants?.includes(tenantId) ?? false);
}

/** The public view of a stored job: never its payload. */
export function toQueuedJob(job: StoredJob): QueuedJob {
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    attempts: job.attempts,
    progress: job.progress.total === undefined
      ? { done: job.progress.done }
      : { done: job.progress.done, total: job.progress.total },
    runAt: job.runAt,
    ...(job.lastErrorCode === undefined ? {} : { lastErrorCode: job.lastErrorCode }),
    ...(job.tenantId === undefined ? {} : { tenantId: job.tenantId }),
    ...(job.subject === undefined ? {} : { subject: job.subject }),
  };
}
