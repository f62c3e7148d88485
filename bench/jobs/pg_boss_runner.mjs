// The pg-boss runner of the jobs side-by-side benchmark (Node):
//   node bench/jobs/pg_boss_runner.mjs <measure> <jobs> <concurrency> <samples> <maxSeconds>
// prints one JSON line.
//
// Settings, for throughput as pg-boss documents them (pg-boss 10 docs/api/workers.md: "The default
// options for work() is 1 job every 2 seconds"; `batchSize` is how many jobs one fetch takes;
// `pollingIntervalSeconds` "must be >=0.5"): pg-boss 10 has no worker-level concurrency option, so
// concurrency N is N `work()` calls on the queue (its documented way), each fetching `batchSize`
// jobs per poll and running them one after another (so at most N jobs run at once, as kit's and
// graphile-worker's concurrency N), the batch completed together when its handler returns (pg-boss's
// batch semantics; its `complete` is not awaited by its work loop, so the harness counts completed
// rows in `pgboss.job`). pg-boss has no LISTEN/NOTIFY and its work loop (src/worker.js) waits what
// is left of the polling interval after every fetch, even a full one, so the N loops run at most
// N x batchSize jobs per interval: `pgBossWorkOptions` (settings.mjs) sizes `batchSize` so that
// cap is 50,000 jobs/s or more (`pgBossCap`), `pollingIntervalSeconds` 0.5 (the minimum; default
// 2); the processing result carries the cap, which the harness prints beside the figure and
// checks against it. An idle worker sees a new job at its next poll. Pool `max` max(10,
// concurrency). Default queue policy ('standard'), maintenance and monitoring on (defaults). The
// producer is a second `PgBoss` on its own pool (`send` for one job, `insert` for a batch). Schema
// `pgboss`, dropped before each row.
import { parseArgs, runMeasure } from "./measure.mjs";
import { peer } from "./peer_modules.mjs";
import { pgBossCap, pgBossWorkOptions } from "./settings.mjs";

const { default: PgBoss } = await peer("pg-boss");
const { default: pg } = await peer("pg");

const params = parseArgs(process.argv.slice(2));
const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench";
const max = Math.max(10, params.concurrency);
const queue = "noop";
let producer;
let worker;
let counter;

const result = await runMeasure({
  async reset() {
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query("drop schema if exists pgboss cascade");
    await client.end();
    producer = new PgBoss({ connectionString, max, supervise: false, schedule: false });
    producer.on("error", (error) => console.error(error));
    await producer.start();
    await producer.createQueue(queue);
  },
  enqueue: (n) => producer.send(queue, { n }).then(() => {}),
  enqueueBatch: (ns) => producer.insert(ns.map((n) => ({ name: queue, data: { n } }))),
  async startWorker(concurrency, onStart, begin) {
    worker = new PgBoss({ connectionString, max: Math.max(10, concurrency) });
    worker.on("error", (error) => console.error(error));
    await worker.start();
    begin();
    for (let i = 0; i < concurrency; i++) {
      await worker.work(queue, pgBossWorkOptions(concurrency), async (jobs) => {
        for (const _job of jobs) {
          onStart();
          await Promise.resolve();
        }
      });
    }
  },
  async completed() {
    counter ??= await connected();
    const { rows } = await counter.query(
      "select count(*)::int as n from pgboss.job where name = $1 and state = 'completed'",
      [queue],
    );
    return rows[0].n;
  },
  stopWorker: () => worker.stop({ graceful: true, wait: true }),
  async close() {
    await counter?.end();
    await producer.stop({ graceful: true, wait: true });
  },
}, params);
console.log(JSON.stringify(
  params.measure === "process" ? { ...result, cap: pgBossCap(params.concurrency) } : result,
));

async function connected() {
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}
process.exit(0);
