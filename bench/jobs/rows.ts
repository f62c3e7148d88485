/**
 * The rows the jobs side-by-side tables promise: the measures, who runs each, and the pairs whose
 * ratios are the targets (issue #33). `jobs_side_by_side.ts` runs them and fails when a row is
 * missing from a table (`assertComplete`); `rows_test.ts` checks them.
 */
import type { ExpectedRow, Pair } from "./report.ts";
import { pgBossCapTarget, pgBossPollingIntervalSeconds, pgBossWorkOptions } from "./settings.mjs";

/** One measure: its row title, the runner's measure, and its job count and concurrency. */
export interface Measure {
  /** The row title. */
  readonly title: string;
  /** What the runner measures. */
  readonly measure: "enqueue" | "enqueue-batch" | "process" | "latency";
  /** The jobs of the row. */
  readonly jobs: number;
  /** The worker's concurrency. */
  readonly concurrency: number;
}

/** The measures of a run: `jobs` is `BENCH_JOBS`, `concurrencies` `BENCH_CONCURRENCY`. */
export function measuresOf(jobs: number, concurrencies: readonly number[]): Measure[] {
  return [
    { title: "enqueue, one job per call", measure: "enqueue", jobs: jobs / 2, concurrency: 1 },
    {
      title: "enqueue, 100 jobs per call",
      measure: "enqueue-batch",
      jobs: jobs * 2.5,
      concurrency: 1,
    },
    // Three times the jobs: at concurrency 50 a row of 4,000 lasts under half a second, and its
    // ramp-up (pools filling, the first claims) weighs as much as the steady rate it measures.
    ...concurrencies.map((c): Measure => ({
      title: `process no-op jobs, concurrency ${c}`,
      measure: "process",
      jobs: jobs * 3,
      concurrency: c,
    })),
    { title: "idle enqueue-to-start latency", measure: "latency", jobs, concurrency: 1 },
  ];
}

/** The titles of a measure's figures: a latency has two (p50 and p99). */
export function figureTitles(m: Measure): string[] {
  return m.measure === "latency" ? [`${m.title} p50`, `${m.title} p99`] : [m.title];
}

/** A row's runner: its name, and the measures it runs (every one when absent). */
export interface RowRunner {
  /** The row's name in the table. */
  readonly name: string;
  /** The measures it runs; a look-ahead setting only changes processing and an idle start. */
  readonly measures?: readonly Measure["measure"][];
  /** Its settings, and the docs they follow, printed under the table. */
  readonly settings: string;
}

/** Whether a runner runs a measure. */
export function runs(runner: RowRunner, m: Measure): boolean {
  return runner.measures === undefined || runner.measures.includes(m.measure);
}

/** kit's rows at its default settings: no prefetch. */
export const kitPg = "kit PostgresJobStore (defaults: no prefetch)";
/** kit's row with prefetch, paired with graphile-worker's equal local queue. */
export const kitPgPrefetch = "kit PostgresJobStore, prefetch max(10, c)";
/** graphile-worker at its defaults. */
export const graphile = "graphile-worker (defaults: no local queue)";
/** graphile-worker with a local queue equal to kit's prefetch. */
export const graphileLocalQueue = "graphile-worker, localQueue.size max(10, c), batched completion";
/** pg-boss configured for throughput. */
export const pgBoss = "pg-boss (batchSize for a cap of 100,000 jobs/s)";
/** kit's Redis store at its default settings. */
export const kitRedis = "kit RedisJobStore (TCP, ioredis; defaults: no prefetch)";
/** BullMQ. */
export const bullmq = "BullMQ";

/** The look-ahead rows run processing and the idle start only (their enqueues are the same). */
const lookAheadMeasures: readonly Measure["measure"][] = ["process", "latency"];

const batches = [1, 10, 50].map((c) => pgBossWorkOptions(c).batchSize.toLocaleString("en-US"))
  .join(" / ");

/** The PostgreSQL rows, in table order (the pgbench reference rows come first, apart). */
export const pgRunners: readonly RowRunner[] = [
  {
    name: kitPg,
    settings:
      "`jobsPlugin` defaults (no prefetch, LISTEN/NOTIFY wake), concurrency c, pool max(10, c)",
  },
  {
    name: kitPgPrefetch,
    measures: lookAheadMeasures,
    settings: "as above with `prefetch` max(10, c) (`kitPrefetch`, bench/jobs/settings.mjs)",
  },
  {
    name: graphile,
    settings: "graphile-worker 0.17.3 `run()` defaults, `concurrency` c, a `pgPool` of max(10, c)",
  },
  {
    name: graphileLocalQueue,
    measures: lookAheadMeasures,
    settings: "as above with `localQueue.size` max(10, c), `completeJobBatchDelay` 0, " +
      "`failJobBatchDelay` 0 (worker.graphile.org/docs/performance#batching: " +
      '"a good starting point is often concurrentJobs + 1 ... a much higher number may make sense" ' +
      "for fast jobs); the size is kit's look-ahead",
  },
  {
    name: pgBoss,
    settings: `pg-boss 10.4.2, c \`work()\` loops, \`batchSize\` ${batches} at c = 1 / 10 / 50, ` +
      `\`pollingIntervalSeconds\` ${pgBossPollingIntervalSeconds} (docs/api/workers.md: the two ` +
      `throughput settings; "must be >=0.5"): a cap of ${
        pgBossCapTarget.toLocaleString("en-US")
      } jobs/s at every c`,
  },
];

/** The Redis rows, in table order (BullMQ is the reference). No peer there has a prefetch. */
export const redisRunners: readonly RowRunner[] = [
  {
    name: bullmq,
    settings: "BullMQ 6.7.0 `Worker`, `concurrency` c, `maxRetriesPerRequest: null`, jobs kept " +
      "(default `removeOnComplete`); no prefetch setting",
  },
  {
    name: kitRedis,
    settings: "`jobsPlugin` defaults (no prefetch, PUBLISH/SUBSCRIBE wake), concurrency c",
  },
];

/** The PostgreSQL pairs of the targets: kit at its defaults against each peer at its own, and the
 * equal look-ahead pair. */
export const pgPairs: readonly Pair[] = [
  [kitPg, graphile],
  [kitPg, pgBoss],
  [kitPgPrefetch, graphileLocalQueue],
];

/** The Redis pair of the targets. */
export const redisPairs: readonly Pair[] = [[kitRedis, bullmq]];

/** The rounds any pair closer than 1.2x is given, interleaved, before its ratio is read. */
export const closeRounds = 5;

/** Every row a table promises: each measure's figures for each runner that runs it. */
export function expectedRows(
  measures: readonly Measure[],
  runners: readonly RowRunner[],
): ExpectedRow[] {
  return measures.flatMap((m) =>
    figureTitles(m).flatMap((measure) =>
      runners.filter((r) => runs(r, m)).map((r) => ({ measure, who: r.name }))
    )
  );
}
