import { type Token, token } from "../composition/token.ts";

/** A deadline to run as a background job: which instance, which deadline, which request. */
export interface ScheduledDeadline {
  /** The process's name. */
  readonly process: string;
  /** The instance's key. */
  readonly key: string;
  /** The deadline's name. */
  readonly name: string;
  /** The request's token: the job is a no-op unless it is still the pending one. */
  readonly token: string;
  /** When it is due (ISO 8601). */
  readonly at: string;
}

/**
 * Runs deadlines as background jobs: `@kit/jobs` provides it (the job `<context>.<process>-deadline`
 * of each process manager, on the context's queue). Both calls run in the transition's unit of
 * work: the job is enqueued, or cancelled, with the transition, or not at all.
 */
export interface ProcessDeadlines {
  /** Enqueues the deadline's job, due at its time, in the unit under way; answers its id. */
  schedule(deadline: ScheduledDeadline): Promise<string>;
  /** Cancels the deadline's job (a job already running finds its deadline no longer pending). */
  cancel(jobId: string): Promise<void>;
}

/** The token of the deadline scheduler. */
export const ProcessDeadlines: Token<ProcessDeadlines> = token<ProcessDeadlines>(
  "ProcessDeadlines",
);
