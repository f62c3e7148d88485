// The settings of every runner of the jobs side-by-side benchmark, in one place, so that the
// runners (kit on Deno, the peers on Node) use them, the harness prints them beside the rows and
// `settings_test.ts` checks them against what the tables cite (issue #33).

/**
 * kit's look-ahead in the rows labelled "prefetch": `jobsPlugin({ prefetch })`, the concurrency but
 * at least 10. kit's default is no prefetch at all: the rows without the label run it.
 *
 * @param {number} concurrency
 * @returns {number}
 */
export function kitPrefetch(concurrency) {
  positiveInteger(concurrency);
  return Math.max(10, concurrency);
}

/**
 * graphile-worker's `localQueue.size` in the row paired with kit's prefetch row: equal to kit's
 * look-ahead. Its docs (0.17.3 `dist/index.d.ts`, `localQueue.size`, and
 * worker.graphile.org/docs/performance#batching): "A good starting point is often
 * `concurrentJobs + 1` ... if you have very high throughput and extremely fast tasks then a much
 * higher number may make sense"; the harness's earlier c + 1 gave it 2 at c=1 where kit took 10.
 *
 * @param {number} concurrency
 * @returns {{ localQueue: { size: number }, completeJobBatchDelay: number, failJobBatchDelay: number }}
 */
export function graphileLocalQueuePreset(concurrency) {
  return {
    localQueue: { size: kitPrefetch(concurrency) },
    // "Even setting this to `0` can be impactful" (the same file, `completeJobBatchDelay`).
    completeJobBatchDelay: 0,
    failJobBatchDelay: 0,
  };
}

/** pg-boss's least polling interval: "must be >=0.5 (500ms)" (pg-boss 10 docs/api/workers.md). */
export const pgBossPollingIntervalSeconds = 0.5;

/**
 * What pg-boss's rows are sized for, in jobs/s: the cap of its `work()` loops together. pg-boss 10
 * waits what is left of `pollingIntervalSeconds` after every fetch, even a full one
 * (`src/worker.js`: it sleeps when more than 100 ms of the interval is left), so each `work()` runs
 * at most `batchSize` jobs per interval. 100,000 jobs/s is over 8x the fastest limit row measured
 * on this machine (pgbench, kit's statements, 11,688 jobs/s at c=50), so the cap should never set
 * pg-boss's figure; the harness checks that at run time (`capCheck`). At c=1 and c=10 one fetch
 * (50,000 and 5,000 jobs) holds most or all of a processing row's 12,000 jobs: pg-boss's
 * look-ahead is its batch, far more than kit's.
 */
export const pgBossCapTarget = 100_000;

/**
 * pg-boss's `work()` options at a concurrency: `batchSize` so that the concurrency's `work()` loops
 * together are capped at `pgBossCapTarget` or more, `pollingIntervalSeconds` its minimum. The docs
 * (pg-boss 10 docs/api/workers.md) name these two as the throughput settings: "The default options
 * for `work()` is 1 job every 2 seconds"; `batchSize` is how many jobs one fetch takes.
 *
 * @param {number} concurrency
 * @returns {{ batchSize: number, pollingIntervalSeconds: number }}
 */
export function pgBossWorkOptions(concurrency) {
  positiveInteger(concurrency);
  return {
    batchSize: Math.ceil(pgBossCapTarget * pgBossPollingIntervalSeconds / concurrency),
    pollingIntervalSeconds: pgBossPollingIntervalSeconds,
  };
}

/**
 * The most jobs/s pg-boss's rows can run at a concurrency, whatever the database does: one
 * `batchSize` per `work()` per polling interval.
 *
 * @param {number} concurrency
 * @returns {number}
 */
export function pgBossCap(concurrency) {
  const { batchSize, pollingIntervalSeconds } = pgBossWorkOptions(concurrency);
  return concurrency * batchSize / pollingIntervalSeconds;
}

/** A figure within this factor of its cap is the cap's, not the runner's. */
export const capMargin = 5;

/**
 * The note printed beside a capped runner's figure: its cap, and whether the figure is far enough
 * below it (`capMargin`) to be the runner's own.
 *
 * @param {number} rate the measured jobs/s
 * @param {number} cap the runner's cap, jobs/s
 * @returns {{ ok: boolean, note: string }}
 */
export function capCheck(rate, cap) {
  const ratio = cap / rate;
  const ok = Number.isFinite(ratio) && ratio >= capMargin;
  const capText = Math.round(cap).toLocaleString("en-US");
  return {
    ok,
    note: ok
      ? `cap ${capText} jobs/s, ${ratio.toFixed(0)}x the figure`
      : `AT ITS CAP: cap ${capText} jobs/s is under ${capMargin}x the figure, which is the harness's, not the runner's`,
  };
}

/**
 * The note beside pg-boss's figure at a concurrency: its cap, checked against the figure
 * (`capCheck`), unless the row's jobs fit in one fetch of each `work()` loop (c x `batchSize`), in
 * which case no loop ever waits out the interval while the row runs and the cap cannot bind.
 *
 * @param {number} rate the measured jobs/s
 * @param {number} concurrency
 * @param {number} jobs the row's jobs
 * @returns {{ ok: boolean, note: string }}
 */
export function pgBossCapNote(rate, concurrency, jobs) {
  const cap = pgBossCap(concurrency);
  const holds = concurrency * pgBossWorkOptions(concurrency).batchSize;
  if (jobs <= holds) {
    return {
      ok: true,
      note: `cap ${Math.round(cap).toLocaleString("en-US")} jobs/s, never reached: the row's ${
        jobs.toLocaleString("en-US")
      } jobs fit in one fetch of its ${concurrency} work() loop(s)`,
    };
  }
  return capCheck(rate, cap);
}

/**
 * @param {number} n
 */
function positiveInteger(n) {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`concurrency must be an integer from 1, got ${n}`);
  }
}
