import type { JsonValue } from "../actor/actor.ts";
import type { ExecutionContext } from "../actor/execution_context.ts";

/** What a transition answers to end its instance: `process.complete()`. */
export interface ProcessCompletion {
  /** The brand of a completion. */
  readonly "kit:processCompletion": true;
}

/** The one completion value. */
export const processCompletion: ProcessCompletion = Object.freeze({
  "kit:processCompletion": true as const,
});

/** Tells whether a transition answered `process.complete()`. */
export function isProcessCompletion(value: unknown): value is ProcessCompletion {
  return value === processCompletion;
}

/** A deadline as its transition receives it. */
export interface ProcessDeadline {
  /** Its name, as declared. */
  readonly name: string;
  /** When it was due. */
  readonly at: Date;
  /** What `requestDeadline` was given (null when nothing). Read, never cast. */
  readonly payload: JsonValue;
}

/** A deadline an instance waits for, as kept with the instance. */
export interface PendingDeadline {
  /** Unique per request: a deadline job whose token is no longer the pending one is a no-op. */
  readonly token: string;
  /** When it is due (ISO 8601). */
  readonly at: string;
  /** The id of its background job, once enqueued. */
  readonly jobId?: string;
  /** What its transition will receive. */
  readonly payload: JsonValue;
}

/**
 * What a transition is given beside its state and message: the instance's key, the time, and the
 * deadline requests. Requests and cancellations take effect with the transition: they are kept
 * (and their jobs enqueued or cancelled) in its unit of work, or not at all.
 */
export interface ProcessContext<D extends string = string> {
  /** The process's name. */
  readonly process: string;
  /** The instance's key (its correlation). */
  readonly key: string;
  /** The instance's tenant ('' for none). */
  readonly tenantId: string;
  /** The clock's time when the transition started. */
  readonly now: Date;
  /** The work the transition runs in: the system actor, the instance's tenant. */
  readonly execution: ExecutionContext;
  /** The deadlines pending, by name (before this transition's requests). */
  readonly deadlines: Readonly<Record<string, { readonly at: Date }>>;
  /**
   * Asks for the deadline `name` at `at`; a pending one of that name is replaced (its job
   * cancelled). Its transition runs at `at` or later, unless cancelled or the instance ended.
   */
  requestDeadline(name: D, at: Date, payload?: JsonValue): void;
  /** Cancels the pending deadline `name` (nothing when none is pending). */
  cancelDeadline(name: D): void;
  /** Ends the instance: answer it from the transition (`return process.complete()`). */
  complete(): ProcessCompletion;
}
