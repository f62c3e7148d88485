// The BullMQ runner of the jobs side-by-side benchmark (Node):
//   node bench/jobs/bullmq_runner.mjs <measure> <jobs> <concurrency> <samples> <maxSeconds>
// prints one JSON line.
//
// Settings (BullMQ's documented production settings): a `Worker` with `concurrency` as given, on
// an ioredis connection with `maxRetriesPerRequest: null` (required for workers), default
// `removeOnComplete`/`removeOnFail` (finished jobs are kept, as kit keeps them); an idle worker
// waits on a blocking command, so a new job wakes it at once. The producer is a `Queue` on its own
// connection (`add` for one job, `addBulk` for a batch). Redis db 5 (or `BENCH_REDIS_DB`), flushed before each row.
// Completions are counted on the worker's `completed` event (after its completion script returned).
import { parseArgs, runMeasure } from "./measure.mjs";
import { peer } from "./peer_modules.mjs";

const { Queue, Worker } = await peer("bullmq");
const { default: Redis } = await peer("ioredis");

const params = parseArgs(process.argv.slice(2));
const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const name = "noop";
const db = Number(process.env.BENCH_REDIS_DB ?? "5");
let queue;
let worker;
let producerConnection;
let workerConnection;
let completed = 0;

const result = await runMeasure({
  async reset() {
    producerConnection = new Redis(url, { db });
    await producerConnection.flushdb();
    queue = new Queue(name, { connection: producerConnection });
  },
  enqueue: (n) => queue.add("noop", { n }).then(() => {}),
  enqueueBatch: (ns) =>
    queue.addBulk(ns.map((n) => ({ name: "noop", data: { n } }))).then(() => {}),
  async startWorker(concurrency, onStart, begin) {
    workerConnection = new Redis(url, { db, maxRetriesPerRequest: null });
    // Not started until its connections (the blocking one too) are ready, so that the clock
    // starts at its first fetch, as every runner's does; `run()` is what `autorun` calls.
    worker = new Worker(name, () => {
      onStart();
      return Promise.resolve();
    }, { connection: workerConnection, concurrency, autorun: false });
    worker.on("error", (error) => console.error(error));
    // Emitted once the job's completion script has returned: its success is in Redis.
    worker.on("completed", () => completed++);
    await worker.waitUntilReady();
    begin();
    worker.run().catch((error) => console.error(error));
  },
  completed: () => Promise.resolve(completed),
  async stopWorker() {
    await worker.close();
    workerConnection.disconnect();
  },
  async close() {
    await queue.close();
    producerConnection.disconnect();
  },
}, params);
console.log(JSON.stringify(result));
process.exit(0);
