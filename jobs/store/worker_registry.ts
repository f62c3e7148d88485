/**
 * The registry of live workers and the rescue of jobs whose lease ended: what a store keeps of
 * each worker process (registered and refreshed by its heartbeat, forgotten when it stops or its
 * heartbeat expires), and what a rescue pass answers.
 *
 * @module
 */

/** A worker process as it registers itself. */
export interface WorkerRegistration {
  /** Its id, unique per process run (a UUID by default). */
  readonly id: string;
  /** The host it runs on, when the entry point tells. */
  readonly host?: string;
  /** Its process id, when the entry point tells. */
  readonly pid?: number;
  /** The queues it consumes, sorted. */
  readonly queues: readonly string[];
  /** When it started. */
  readonly startedAt: Date;
}

/** A worker whose heartbeat has not expired. */
export interface LiveWorker extends WorkerRegistration {
  /** Its last heartbeat. */
  readonly heartbeatAt: Date;
  /** When its registration expires unless it beats again. */
  readonly expiresAt: Date;
}

/** The params of `JobStore.workerHeartbeat`. */
export interface WorkerHeartbeatParams {
  /** The worker. */
  readonly worker: WorkerRegistration;
  /** The time of the heartbeat. */
  readonly now: Date;
  /** How long the registration lives without another heartbeat, in ms. */
  readonly ttlMs: number;
}

/** The params of `JobStore.jobRescue`. */
export interface JobRescueParams {
  /** The time of the pass: leases that ended at or before it are rescued. */
  readonly now: Date;
  /** The most jobs to rescue in one call. */
  readonly limit: number;
}

/** A job a rescue pass took back from an ended lease. */
export interface RescuedJob {
  /** The job. */
  readonly id: string;
  /** Its queue. */
  readonly queue: string;
  /**
   * Where it went: `waiting` (due again, the ended attempt recorded as `expired`) or `dead`
   * (the lease of its last attempt ended: `ATTEMPTS_EXHAUSTED`).
   */
  readonly outcome: "waiting" | "dead";
}

/** The error code a job dies with when the lease of its last attempt ended. */
export const attemptsExhaustedCode = "ATTEMPTS_EXHAUSTED";

/** The error message a job dies with when the lease of its last attempt ended. */
export const attemptsExhaustedMessage = "The lease of the last attempt ended";

/**
 * Checks the params of a heartbeat: an id of 1 to 200 characters, a ttl of a whole number of ms
 * from 1 (a store calls it first).
 *
 * @param params The heartbeat's params.
 * @throws {RangeError} When a value is out of bounds.
 */
export function checkWorkerHeartbeat(params: WorkerHeartbeatParams): void {
  const { worker, ttlMs } = params;
  if (worker.id.length === 0 || worker.id.length > 200) {
    throw new RangeError(`A worker id must have 1 to 200 characters, got ${worker.id.length}`);
  }
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) {
    throw new RangeError(
      `A worker's heartbeat ttl must be a whole number of ms from 1, got ${ttlMs}`,
    );
  }
}
