/**
 * Retention: what one prune call of a store removes. A prune works on one queue and one finished
 * status at a time, by age (`finishedBefore`) and by count (`keep`), and removes at most `limit`
 * jobs, so that each call is one bounded index scan (workers call it again and again; see the
 * worker's `Pruner`).
 *
 * @module
 */

/** The statuses a job ends in: the ones a prune removes. */
export type FinishedJobStatus = "succeeded" | "cancelled" | "dead";

/** The finished statuses, in the order a pruner walks them. */
export const finishedJobStatuses = [
  "succeeded",
  "cancelled",
  "dead",
] as const satisfies readonly FinishedJobStatus[];

/** The most jobs one prune call removes. */
export const jobPruneMaxLimit = 10_000;

/** The params of `JobStore.jobPrune`. */
export interface JobPruneParams {
  /** The queue whose jobs it removes (no other queue's). */
  readonly queue: string;
  /** The status whose jobs it removes (never a waiting or running job). */
  readonly status: FinishedJobStatus;
  /** Jobs of the queue and status that finished before this instant go. */
  readonly finishedBefore?: Date;
  /**
   * Of the queue's jobs in the status, the `keep` that finished last stay (ties: the greatest
   * id); the older ones go, whatever their age.
   */
  readonly keep?: number;
  /** The most jobs removed by this call, 1 to {@linkcode jobPruneMaxLimit}. */
  readonly limit: number;
}

/**
 * Checks the params of a prune (a store calls it first): a status that is finished, a queue, one
 * of `finishedBefore` (a valid date) and `keep` (a whole number from 0) at least, and a `limit` of
 * 1 to {@linkcode jobPruneMaxLimit}.
 *
 * @param params The prune's params.
 * @throws {RangeError} When a value is out of bounds.
 */
export function checkJobPruneParams(params: JobPruneParams): void {
  const { queue, status, finishedBefore, keep, limit } = params;
  if (typeof queue !== "string" || queue.length === 0) {
    throw new RangeError("A prune names the queue whose finished jobs it removes");
  }
  if (!(finishedJobStatuses as readonly string[]).includes(status)) {
    throw new RangeError(
      `A prune removes succeeded, cancelled or dead jobs, got status ${JSON.stringify(status)}`,
    );
  }
  if (finishedBefore === undefined && keep === undefined) {
    throw new RangeError("A prune needs finishedBefore, keep or both");
  }
  if (finishedBefore !== undefined && !Number.isFinite(finishedBefore.getTime())) {
    throw new RangeError("A prune's finishedBefore must be a valid date");
  }
  if (keep !== undefined && (!Number.isSafeInteger(keep) || keep < 0)) {
    throw new RangeError(`A prune's keep must be a whole number from 0, got ${keep}`);
  }
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > jobPruneMaxLimit) {
    throw new RangeError(
      `A prune's limit must be a whole number from 1 to ${jobPruneMaxLimit}, got ${limit}`,
    );
  }
}
