// deno-lint-ignore-file no-explicit-any
import type { Actor, JsonValue } from "../actor/actor.ts";
import { type Token, token } from "../composition/token.ts";
import type { Duration } from "../time/duration.ts";

/** What a run of a background job is given beside its payload. */
export interface BackgroundJobExecution {
  /** The id of the job. */
  readonly jobId: string;
  /** The number of this attempt, from 1. */
  readonly attempt: number;
  /** The actor who enqueued the job, as they were then (roles and attributes included). */
  readonly actor: Actor;
  /** Aborted on cancellation, timeout, lost lease or worker stop. */
  readonly signal: AbortSignal;
  /** What an earlier attempt saved with `saveCheckpoint`; absent on a fresh start. Read, never cast. */
  readonly checkpoint: unknown;
  /** Reports progress and extends the lease; refused (JobInterruptedError) when the attempt no longer holds the job. */
  reportProgress(progress: { done: number; total?: number }): Promise<void>;
  /**
   * Stores a JSON checkpoint and extends the lease. Inside the unit of work of a step (a command
   * the job sends) it commits with that step on stores that share the transaction.
   */
  saveCheckpoint(value: JsonValue): Promise<void>;
}

/** A background job class: `static jobName` and `run(payload, execution)`. */
export interface BackgroundJobClass<Payload = any> {
  /** `<context>.<job-name>`; the queue is the context. */
  readonly jobName: string;
  /** Built by the composition root from its constructor dependencies. */
  new (...args: any[]): { run(payload: Payload, execution: BackgroundJobExecution): Promise<void> };
}

/** The payload type a job class's `run` takes. */
export type JobPayloadOf<J> = J extends abstract new (...args: any[]) => {
  run(payload: infer P, ...rest: any[]): any;
} ? P
  : never;

/**
 * The JSON-safe shape of a payload type: any `Date` in it becomes `never`, so a payload holding a
 * date does not compile (a payload travels as JSON: dates as ISO text).
 */
export type JsonSafe<T> = T extends Date ? never
  : T extends readonly (infer E)[] ? readonly JsonSafe<E>[]
  : T extends object ? { readonly [K in keyof T]: JsonSafe<T[K]> }
  : T;

/** The payload `enqueue` accepts for a job: what its `run` takes, with no `Date` in it. */
export type EnqueuePayload<J> = JobPayloadOf<J> & JsonSafe<JobPayloadOf<J>>;

/** Per-call options of `enqueue`. */
export interface EnqueueOptions {
  /** Not before now plus this delay. */
  readonly delay?: Duration;
  /** Not before this instant. */
  readonly runAt?: Date;
  /** Unique per job name and tenant while the job is kept: a second enqueue answers the first id. */
  readonly idempotencyKey?: string;
  /** The id of what the job works on (a calendar id). */
  readonly subject?: string;
}

/** What `enqueue` answers. */
export interface EnqueueResult {
  /** The id of the job. */
  readonly id: string;
  /** True when a job of the same name, tenant and idempotency key was kept already. */
  readonly duplicate?: boolean;
}

/** The closed vocabulary of job statuses, usable as an enum in an OpenAPI schema. */
export const queuedJobStatuses: readonly ["waiting", "running", "succeeded", "dead", "cancelled"] =
  [
    "waiting",
    "running",
    "succeeded",
    "dead",
    "cancelled",
  ] as const;

/**
 * The status of a job: `waiting` (due now or later), `running` (claimed under a lease),
 * `succeeded`, `dead` (attempts exhausted; an operator may revive it), `cancelled`.
 */
export type QueuedJobStatus = typeof queuedJobStatuses[number];

/** What `find` answers of a job: never its payload. */
export interface QueuedJob {
  /** The id. */
  readonly id: string;
  /** The job name, `<context>.<job-name>`. */
  readonly name: string;
  /** The status. */
  readonly status: QueuedJobStatus;
  /** Attempts started so far. */
  readonly attempts: number;
  /** The last reported progress (`done` 0 when none). */
  readonly progress: { readonly done: number; readonly total?: number };
  /** The error code of the last failed attempt. */
  readonly lastErrorCode?: string;
  /** The tenant of the work that enqueued it. */
  readonly tenantId?: string;
  /** What the job works on. */
  readonly subject?: string;
  /** When it is due (not before). */
  readonly runAt: Date;
}

/**
 * The port use cases enqueue background jobs through. On a store that shares the transaction
 * the job is written in the unit of work under way; on the others it is written after commit.
 *
 * @example
 * ```ts ignore
 * const { id } = await this.jobs.enqueue(ClearCalendar, {
 *   calendarId, appointmentIds, reason,
 * }, { subject: calendarId });
 * ```
 */
export interface JobQueue {
  /** Enqueues a job; a payload that is not what `run` takes does not compile. */
  enqueue<J extends BackgroundJobClass>(
    job: J,
    payload: EnqueuePayload<J>,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /** Enqueues many jobs of one class in one write, each with its own options; results in order. */
  enqueueMany<J extends BackgroundJobClass>(
    job: J,
    items: readonly { readonly payload: EnqueuePayload<J>; readonly options?: EnqueueOptions }[],
  ): Promise<EnqueueResult[]>;
  /**
   * Cancels a waiting job once the unit of work commits (at once outside one); a running job
   * learns it at its next heartbeat or report. Answers false when no such job is reachable.
   */
  cancel(id: string): Promise<boolean>;
  /** The job, as the work under way may see it (its tenant's jobs only); absent when none. */
  find(id: string): Promise<QueuedJob | undefined>;
}

/** The token of the job queue. */
export const JobQueue: Token<JobQueue> = token<JobQueue>("JobQueue");
