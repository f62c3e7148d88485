/**
 * The batch sizes of kit's worker on a busy queue of no-op jobs, with the kit runner's settings
 * (`concurrency` c, `prefetch` max(10, c)): what the limit rows claim and complete per statement.
 *
 * Traced with `BENCH_TRACE_BATCHES=1 deno run -A bench/jobs/kit_runner.ts pg process 12000 <c>`:
 * at c=1 the claims take 5 or 6 jobs (half the prefetch, topped up as it drains: 5 when the claim
 * returns with the slot busy, 6 when it is free), at c=10 10 and at c=50 50 (the local queue is
 * topped up once half of it started); the completion batches average about the same (5.9, 10.5,
 * 52.9); and the worker never has more than 2 store calls in flight (one claim, one completion
 * batch), whatever c: so the limit rows run 2 clients, each claiming a batch and completing it.
 */

/** The least and most jobs one claim takes. */
export interface ClaimBatch {
  readonly min: number;
  readonly max: number;
}

/** The connections the worker keeps busy at once: one claim and one completion batch. */
export const limitClients = 2;

/**
 * kit's claim batch at concurrency c: measured at 1, 10 and 50; between 1 and 10 the worker's
 * rule (a top-up of half the prefetch of 10, plus the free slots) gives 5 to 5 + c.
 */
export function kitClaimBatch(concurrency: number): ClaimBatch {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer from 1, got ${concurrency}`);
  }
  return concurrency >= 10
    ? { min: concurrency, max: concurrency }
    : { min: 5, max: 5 + concurrency };
}

/** The batch as a label: "5-6 jobs", "10 jobs". */
export function batchLabel(batch: ClaimBatch): string {
  return batch.min === batch.max ? `${batch.min} jobs` : `${batch.min}-${batch.max} jobs`;
}
