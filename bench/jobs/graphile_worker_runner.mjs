// The graphile-worker runner of the jobs side-by-side benchmark (Node):
//   node bench/jobs/graphile_worker_runner.mjs <measure> <jobs> <concurrency> <samples> <maxSeconds>
// prints one JSON line.
//
// Settings (graphile-worker's documented defaults, concurrency as given): `run()` with
// `concurrency`, its `pgPool` a `pg.Pool` of max(10, concurrency) (the docs ask for a pool at
// least as large as the concurrency), `pollInterval` 2000 ms (default; idle workers are woken by its LISTEN/NOTIFY on
// `jobs:insert`), no local queue and no batched completion (both opt-in, experimental). The
// producer is `makeWorkerUtils()` on its own pool: `addJob` (one `add_job` call) and `addJobs`.
// Schema `graphile_worker`, dropped before each row.
//
// With GRAPHILE_LOCAL_QUEUE=1, its documented batching settings (worker.graphile.org/docs/performance,
// opt-in; `graphileLocalQueuePreset` in settings.mjs): `localQueue.size` equal to kit's look-ahead
// in kit's prefetch row (`kitPrefetch`: the concurrency, at least 10; jobs fetched and locked
// ahead) and `completeJobBatchDelay`/`failJobBatchDelay` 0 (completions batched, as kit batches
// its own). `preparedStatements` stays at its default, on.
// A job's completion deletes its row: completed = the jobs enqueued minus the rows left.
import { parseArgs, runMeasure } from "./measure.mjs";
import { peer } from "./peer_modules.mjs";
import { graphileLocalQueuePreset } from "./settings.mjs";

const { run, makeWorkerUtils, Logger } = await peer("graphile-worker");
const { default: pg } = await peer("pg");

const params = parseArgs(process.argv.slice(2));
const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench";
const logger = new Logger(() => () => {});
const maxPoolSize = Math.max(10, params.concurrency);
let utils;
let runner;
let counter;
let pool;

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
  async startWorker(concurrency, onStart, begin) {
    // Its pool made and connected first (`pgPool`, a documented option of `run()`), so that the
    // clock starts at its first claim, as every runner's does.
    pool = new pg.Pool({ connectionString, max: Math.max(10, concurrency) });
    pool.on("error", (error) => console.error(error));
    const clients = await Promise.all(
      Array.from({ length: Math.max(10, concurrency) }, () => pool.connect()),
    );
    for (const client of clients) client.release();
    begin();
    runner = await run({
      pgPool: pool,
      concurrency,
      noHandleSignals: true,
      ...(process.env.GRAPHILE_LOCAL_QUEUE === "1"
        ? { preset: { worker: graphileLocalQueuePreset(concurrency) } }
        : {}),
      logger,
      taskList: {
        noop: () => {
          onStart();
        },
      },
    });
  },
  async completed() {
    counter ??= await connected();
    const { rows } = await counter.query(
      "select (select count(*) from graphile_worker._private_jobs)::int as left",
    );
    return params.jobs - rows[0].left;
  },
  async stopWorker() {
    await runner.stop();
    await pool.end();
  },
  async close() {
    await counter?.end();
    await utils.release();
  },
}, params);
console.log(JSON.stringify(result));

async function connected() {
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}
process.exit(0);
