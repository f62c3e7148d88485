/**
 * Aborts a run whose attempt no longer holds its job: a report was refused because the job was
 * claimed again (its lease ended) or cancelled, or its lease lapsed ({@linkcode JobLeaseLostError}).
 */
export class JobInterruptedError extends Error {
  /** The id of the job. */
  readonly jobId: string;

  /** Builds the error for a job. */
  constructor(jobId: string, message = `Job '${jobId}' is no longer held by this attempt`) {
    super(message);
    this.name = "JobInterruptedError";
    this.jobId = jobId;
  }
}

/**
 * Aborts a run whose lease ended without a report reaching the store (heartbeats failing: the
 * store unreachable, the process stalled): another worker may have claimed the job, so this
 * attempt stops and records nothing. The job runs again under its next claim.
 */
export class JobLeaseLostError extends JobInterruptedError {
  /** When the lease ended. */
  readonly leaseEndedAt: Date;

  /** Builds the error for a job and the end of its lease. */
  constructor(jobId: string, leaseEndedAt: Date) {
    super(
      jobId,
      `Job '${jobId}' lost its lease at ${leaseEndedAt.toISOString()}: no heartbeat reached the store`,
    );
    this.name = "JobLeaseLostError";
    this.leaseEndedAt = leaseEndedAt;
  }
}

/** Aborts a run that outlived its job's `timeout`; the attempt counts failed (`JOB_TIMED_OUT`). */
export class JobTimeoutError extends Error {
  /** The error code kept with the job. */
  readonly code = "JOB_TIMED_OUT";

  /** Builds the error for a job and its timeout. */
  constructor(jobId: string, timeoutMs: number) {
    super(`Job '${jobId}' ran longer than its timeout of ${timeoutMs} ms`);
    this.name = "JobTimeoutError";
  }
}

/** Aborts a run when its worker stops after the grace period; the job goes back uncounted. */
export class WorkerStoppedError extends Error {
  /** Builds the error. */
  constructor() {
    super("The worker stopped before the attempt ended");
    this.name = "WorkerStoppedError";
  }
}
