// The pg-boss runner of the jobs side-by-side benchmark (Node):
//   node bench/jobs/pg_boss_runner.mjs <measure> <jobs> <concurrency> <samples> <maxSeconds>
// prints one JSON line.
//
// Settings: pg-boss 10 has no worker-level concurrency option: concurrency N is N `work()` calls on
// the queue (its documented way), each with `batchSize` 1 (default) and `pollingIntervalSeconds`
// 0.5 (the documented minimum; the default is 2 s — pg-boss has no LISTEN/NOTIFY, so an idle worker
// only sees a new job at its next poll). Pool `max` max(10, concurrency). Default queue policy
// ('standard'), maintenance and monitoring on (defaults). The producer is a second `PgBoss` on its
// own pool (`send` for one job, `insert` for a batch). Schema `pgboss`, dropped before each row.
import { parseArgs, runMeasure } from "./measure.mjs";
import { peer } from "./peer_modules.mjs";

const { default: PgBoss } = await peer("pg-boss");
const { default: pg } = await peer("pg");

const params = parseArgs(process.argv.slice(2));
const connectionString = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench";
const max = Math.max(10, params.concurrency);
const queue = "noop";
let producer;
let worker;

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
  async startWorker(concurrency, onStart) {
    worker = new PgBoss({ connectionString, max: Math.max(10, concurrency) });
    worker.on("error", (error) => console.error(error));
    await worker.start();
    for (let i = 0; i < concurrency; i++) {
      await worker.work(queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, () => {
        onStart();
        return Promise.resolve();
      });
    }
  },
  stopWorker: () => worker.stop({ graceful: true, wait: true }),
  close: () => producer.stop({ graceful: true, wait: true }),
}, params);
console.log(JSON.stringify(result));
process.exit(0);
