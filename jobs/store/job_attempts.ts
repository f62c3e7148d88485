/**
 * A job's attempt history: how each of its last attempts ended. Every store keeps the last
 * {@linkcode jobAttemptHistoryLimit} ended attempts of a job and forgets them with the job.
 *
 * @module
 */

/**
 * How an attempt ended (the worker's words, `AttemptOutcome`): `succeeded`; `retried` (it failed
 * and the job waits to be retried); `dead` (it failed, or its lease ended, on the last attempt:
 * the job died); `expired` (its lease ended and the job was claimed again).
 */
export type JobAttemptOutcome = "succeeded" | "retried" | "dead" | "expired";

/** The outcomes of {@linkcode JobAttemptOutcome}, in the order of a job's life. */
export const jobAttemptOutcomes = [
  "succeeded",
  "retried",
  "dead",
  "expired",
] as const satisfies readonly JobAttemptOutcome[];

/** One ended attempt of a job. */
export interface JobAttempt {
  /** The number of the attempt, from 1 (a revived job counts from 1 again). */
  readonly attempt: number;
  /** How it ended. */
  readonly outcome: JobAttemptOutcome;
  /** The error code of a failed attempt (`ATTEMPTS_EXHAUSTED` when the last lease ended). */
  readonly errorCode?: string;
  /** Its error message, cut to {@linkcode jobAttemptMessageMaxLength} characters. */
  readonly errorMessage?: string;
  /**
   * When it was claimed, when the store knows (the built-in stores do, but for attempts claimed
   * before the upgrade that added the history).
   */
  readonly startedAt?: Date;
  /** When it ended (for `expired`, when it was claimed again). */
  readonly endedAt: Date;
}

/** The most ended attempts a store keeps per job: the last ones. */
export const jobAttemptHistoryLimit = 20;

/** The longest error message an attempt keeps, in characters (UTF-16 code units). */
export const jobAttemptMessageMaxLength = 500;

/**
 * Cuts an error message to {@linkcode jobAttemptMessageMaxLength}, never inside a surrogate pair,
 * marking the cut with an ellipsis.
 *
 * @example
 * ```ts
 * import { truncateAttemptMessage } from "@kit/jobs/store";
 * truncateAttemptMessage("x".repeat(600)).length; // 500
 * ```
 *
 * @param message The error message.
 * @returns The message, cut when longer than the bound.
 */
export function truncateAttemptMessage(message: string): string {
  if (message.length <= jobAttemptMessageMaxLength) return message;
  let end = jobAttemptMessageMaxLength - 1;
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return message.slice(0, end) + "…";
}

/**
 * Appends an attempt to a history and keeps the last {@linkcode jobAttemptHistoryLimit}.
 *
 * @param history The history so far, oldest first.
 * @param attempt The attempt that ended.
 * @returns The new history, oldest first.
 */
export function appendAttempt(
  history: readonly JobAttempt[],
  attempt: JobAttempt,
): JobAttempt[] {
  return [...history, attempt].slice(-jobAttemptHistoryLimit);
}

/**
 * Reads a history kept as JSON (Postgres `jsonb`, Redis list items): an array of objects with
 * `attempt`, `outcome`, `errorCode`, `errorMessage`, `startedAt` and `endedAt` (times in ms).
 * Entries that are not such objects are skipped.
 *
 * @param entries The decoded JSON entries, oldest first.
 * @returns The attempts, oldest first, the last {@linkcode jobAttemptHistoryLimit}.
 */
export function attemptHistoryOf(entries: readonly unknown[]): JobAttempt[] {
  const history: JobAttempt[] = [];
  for (const entry of entries) {
    if (typeof entry !== "object" || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const outcome = jobAttemptOutcomes.find((o) => o === e.outcome);
    const endedAt = Number(e.endedAt);
    if (!Number.isSafeInteger(e.attempt) || outcome === undefined || !Number.isFinite(endedAt)) {
      continue;
    }
    const startedAt = e.startedAt == null ? NaN : Number(e.startedAt);
    history.push({
      attempt: e.attempt as number,
      outcome,
      ...(typeof e.errorCode === "string" ? { errorCode: e.errorCode } : {}),
      ...(typeof e.errorMessage === "string" ? { errorMessage: e.errorMessage } : {}),
      ...(Number.isFinite(startedAt) ? { startedAt: new Date(startedAt) } : {}),
      endedAt: new Date(endedAt),
    });
  }
  return history.slice(-jobAttemptHistoryLimit);
}
