// The graphile-worker runner of the jobs side-by-side benchmark (Node):
//   node bench/jobs/graphile_worker_runner.mjs <measure> <jobs> <concurrency> <samples> <maxSeconds>
// prints one JSON line.
//
// Settings (graphile-worker's documented defaults, concurrency as given): `run()` with
// `concurrency`, `maxPoolSize` max(10, concurrency) (the docs ask for a pool at least as large as
// the concurrency), `pollInterval` 2000 ms (default; idle workers are woken by its LISTEN/NOTIFY on
// `jobs:insert`), no local queue and no batched completion (both opt-in, experimental). The
// producer is `makeWorkerUtils()` on its own pool: `addJob` (one `add_job` call) and `addJobs`.
// Schema `graphile_worker`, dropped before each row.
//
// With GRAPHILE_BATCHING=1, its documented batching settings (worker.graphile.org/docs/performance,
// opt-in): `localQueue.size` concurrency + 1 (jobs fetched and locked ahead) and
// `completeJobBatchDelay`/`failJobBatchDelay` 0 (completions batched, as kit batches its own).
import { parseArgs, runMeasure } from "./measure.mjs";
import { peer } from "./peer_modules.mjs";

const { run, makeWorkerUtils, Logger } = await peer("graphile-worker");
const { default: pg } = await peer("pg");

const params = parseArgs(process.argv.slice(2));
const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench";
const logger = new Logger(() => () => {});
const maxPoolSize = Math.max(10, params.concurrency);
let utils;
let runner;

const result = await runMeasure({
  async reset() {
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query("drop schema if exists graphile_worker cascade");
    await client.end();
    utils = await makeWorkerUtils({ connectionString, logger, maxPoolSize });
    await utils.migrate();
  },
  enqueue: (n) => utils.addJob("noop", { n }).then(() => {}),
  enqueueBatch: (ns) =>
    utils.addJobs(ns.map((n) => ({ identifier: "noop", payload: { n } }))).then(() => {}),
  async startWorker(concurrency, onStart) {
    runner = await run({
      connectionString,
      concurrency,
      maxPoolSize: Math.max(10, concurrency),
      noHandleSignals: true,
      ...(process.env.GRAPHILE_BATCHING === "1"
        ? {
          preset: {
            worker: {
              localQueue: { size: concurrency + 1 },
              completeJobBatchDelay: 0,
              failJobBatchDelay: 0,
            },
          },
        }
        : {}),
      logger,
      taskList: {
        noop: () => {
          onStart();
        },
      },
    });
  },
  stopWorker: () => runner.stop(),
  close: () => utils.release(),
}, params);
console.log(JSON.stringify(result));
process.exit(0);
