/**
 * The JSON the dashboard's script reads from the jobs API (`GET <prefix>/…`), as far as it reads
 * it, and the state of the page it keeps.
 *
 * @module
 */

/** A job status. */
export type JobStatus = "waiting" | "running" | "succeeded" | "dead" | "cancelled";

/** How far a job has come. */
export interface Progress {
  readonly done: number;
  readonly total?: number;
}

/** One queue's jobs by status (`GET /queues`, the event stream's snapshot). */
export interface QueueCounts extends Readonly<Record<JobStatus, number>> {
  readonly queue: string;
}

/** One ended attempt of a job. */
export interface Attempt {
  readonly attempt: number;
  readonly outcome: string;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly startedAt?: string;
  readonly at: string;
}

/** A job (`GET /jobs`, `GET /jobs/:id`). */
export interface Job {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly status: JobStatus;
  readonly subject?: string;
  readonly tenantId?: string;
  readonly actor: { readonly kind: string; readonly id: string };
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly progress: Progress;
  readonly lastErrorCode?: string;
  readonly lastErrorAt?: string;
  readonly runAt: string;
  readonly createdAt: string;
  readonly finishedAt?: string;
  readonly workerId?: string;
  readonly workerGone?: boolean;
  readonly traceId?: string;
  readonly correlationId?: string;
  readonly checkpoint?: unknown;
  readonly attemptHistory?: readonly Attempt[];
}

/** A page of jobs. */
export interface JobPage {
  readonly jobs: readonly Job[];
  readonly next?: string;
}

/** A job named by a link. */
export interface JobLink {
  readonly id: string;
  readonly name: string;
}

/** A live worker (`GET /workers`). */
export interface Worker {
  readonly id: string;
  readonly host?: string;
  readonly pid?: number;
  readonly queues: readonly string[];
  readonly startedAt: string;
  readonly heartbeatAt: string;
  readonly runningJobs: readonly JobLink[];
}

/** The live workers, and the running jobs whose worker is gone. */
export interface Workers {
  readonly workers: readonly Worker[];
  readonly orphanedJobs: readonly (JobLink & { readonly workerId: string })[];
}

/** A scheduled job (`GET /schedules`). */
export interface ScheduledJob {
  readonly name: string;
  readonly queue: string;
  readonly every: number | string;
  readonly lastTick?: { readonly jobId: string; readonly at: string; readonly status: JobStatus };
  readonly nextTick: string;
}

/** One handler's undelivered events (`GET /outbox`). */
export interface OutboxHandler {
  readonly handler: string;
  readonly pending: number;
  readonly oldestPendingAt?: string;
  readonly oldestPendingAgeMs?: number;
  readonly retrying: number;
  readonly dead: number;
}

/** One queue's last hour, minute by minute. */
export interface QueueActivity {
  readonly queue: string;
  readonly succeeded: readonly number[];
  readonly failed: readonly number[];
  readonly dead: readonly number[];
}

/** The last hour (`GET /activity`). */
export interface Activity {
  readonly since: string;
  readonly bucketMs: number;
  readonly queues: readonly QueueActivity[];
}

/** One process manager's instances by status (`GET /processes`). */
export interface ProcessCounts {
  readonly process: string;
  readonly active: number;
  readonly completed: number;
}

/** A process instance in a page of them. */
export interface InstanceRow {
  readonly key: string;
  readonly tenantId?: string;
  readonly status: string;
  readonly version: number;
  readonly updatedAt: string;
}

/** A page of a process's instances. */
export interface InstancePage {
  readonly instances: readonly InstanceRow[];
  readonly next?: string;
}

/** One process instance with its history (`GET /processes/:process/instances/:key`). */
export interface InstanceDetail {
  readonly instance: InstanceRow & {
    readonly tenantId: string;
    readonly startedAt: string;
    readonly completedAt?: string;
    readonly endedBy?: string;
    readonly state: unknown;
    readonly deadlines: readonly {
      readonly name: string;
      readonly at: string;
      readonly jobId?: string;
    }[];
  };
  readonly history: readonly {
    readonly kind: string;
    readonly name: string;
    readonly handledAt: string;
    readonly messageId: string;
    readonly parked?: boolean;
  }[];
}

/** The event stream's snapshot: the queues' counts and the running jobs' progress. */
export interface Snapshot {
  readonly queues: readonly QueueCounts[];
  readonly running: readonly { readonly id: string; readonly progress: Progress }[];
}

/** A refusal's problem details. */
export interface Problem {
  readonly title?: string;
  readonly detail?: string;
  readonly code?: string;
}

/** What the page shows, for the live updates to know what to refresh. */
export type View =
  | { readonly kind: "none" | "refused" | "instances" | "instance" }
  | { readonly kind: "queues"; readonly queues: string }
  | { readonly kind: "jobs"; readonly running: ReadonlySet<string> }
  | { readonly kind: "job"; readonly id: string; readonly status: JobStatus };
