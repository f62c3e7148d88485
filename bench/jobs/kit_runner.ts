/**
 * The kit runner of the jobs side-by-side benchmark: `deno run -A bench/jobs/kit_runner.ts
 * <pg|redis> <measure> <jobs> <concurrency> <samples> <maxSeconds>` prints one JSON line.
 *
 * Settings: the `jobsPlugin` defaults (poll interval 1 s, LISTEN/NOTIFY wake on Postgres,
 * PUBLISH/SUBSCRIBE wake on Redis over TCP, no prefetch), worker concurrency as given; with
 * `BENCH_KIT_PREFETCH=1`, `prefetch` the concurrency but at least 10 (`kitPrefetch` in
 * settings.mjs: the option for a busy queue, off by default; its rows are labelled "prefetch"); the producer is a second application that only enqueues (`start: false`),
 * on its own pool, so a job reaches the worker as it would from a web process: through NOTIFY
 * (Postgres) or PUBLISH (Redis). Postgres pool: max(10, concurrency) connections, as for the peers.
 * Redis: the durability check off (`requireDurability: "off"`), since the benchmark runs, like
 * BullMQ's row, on the machine's throwaway server, which keeps no append-only file.
 */
import postgres from "postgres";
import { Redis } from "ioredis";
import {
  composeApplication,
  defineModule,
  InMemoryTransactions,
  type TransactionManager,
} from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { type BackgroundJobsApi, jobsPlugin, type JobStore } from "@kit/jobs";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { RedisJobStore, tcpScripting } from "@kit/jobs/redis";
import { parseArgs, runMeasure } from "./measure.mjs";
import { kitPrefetch } from "./settings.mjs";
import { Noop, onNoopStart } from "./noop_job.ts";

const [kind, ...rest] = Deno.args;
const params = parseArgs(rest);
const schema = "kit_bench";
const databaseUrl = Deno.env.get("DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/bench";
const redisUrl = Deno.env.get("REDIS_URL") ?? "redis://127.0.0.1:6379";
const prefetch = Deno.env.get("BENCH_KIT_PREFETCH") === "1";
const redisDb = Number(Deno.env.get("BENCH_REDIS_DB") ?? "5");

function app(store: JobStore, transactions: TransactionManager, worker?: number) {
  return composeApplication({
    modules: [defineModule("bench", { declarations: [Noop] })],
    transactions,
    errorReporter: { report: (error) => console.error(error) },
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        start: worker !== undefined,
        ...(worker === undefined
          ? {}
          : { concurrency: worker, ...(prefetch ? { prefetch: kitPrefetch(worker) } : {}) }),
      }),
    },
  });
}

interface Side {
  readonly store: JobStore;
  readonly transactions: TransactionManager;
}

interface Clients {
  readonly producer: Side;
  readonly worker: Side;
  /** Connects the worker's clients (the measure's clock starts after it). */
  warm(): Promise<void>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * With `BENCH_TRACE_BATCHES=1`, the worker's store counts what the worker asks of it: claims (the
 * limit asked, the jobs got), completion batches, and the most store calls in flight at once; the
 * summary goes to stderr at the end (it sets the batch sizes of the pgbench limit rows).
 */
const trace = Deno.env.get("BENCH_TRACE_BATCHES") === "1"
  ? { claims: [] as [number, number][], completes: [] as number[], inFlight: 0, maxInFlight: 0 }
  : undefined;

function traced<T>(call: () => Promise<T>): Promise<T> {
  if (trace === undefined) return call();
  trace.maxInFlight = Math.max(trace.maxInFlight, ++trace.inFlight);
  return call().finally(() => trace.inFlight--);
}

/** The jobs whose success the worker's store wrote: counted as each completion call returns. */
let completed = 0;
const countHeld = (held: readonly boolean[]) => {
  for (const h of held) if (h) completed++;
  return held;
};

class TracedPostgresJobStore extends PostgresJobStore {
  override async jobClaim(params: Parameters<PostgresJobStore["jobClaim"]>[0]) {
    const jobs = await traced(() => super.jobClaim(params));
    trace?.claims.push([params.limit, jobs.length]);
    return jobs;
  }
  override jobCompleteMany(params: Parameters<PostgresJobStore["jobCompleteMany"]>[0]) {
    trace?.completes.push(params.jobs.length);
    return traced(() => super.jobCompleteMany(params)).then(countHeld);
  }
  override async jobComplete(params: Parameters<PostgresJobStore["jobComplete"]>[0]) {
    const held = await super.jobComplete(params);
    if (held) completed++;
    return held;
  }
}

class CountingRedisJobStore extends RedisJobStore {
  override jobCompleteMany(params: Parameters<RedisJobStore["jobCompleteMany"]>[0]) {
    return super.jobCompleteMany(params).then(countHeld);
  }
  override async jobComplete(params: Parameters<RedisJobStore["jobComplete"]>[0]) {
    const held = await super.jobComplete(params);
    if (held) completed++;
    return held;
  }
}

function pgClients(): Clients {
  const max = Math.max(10, params.concurrency);
  const options = { max, onnotice: () => {}, connection: { search_path: schema } };
  const [a, b] = [postgres(databaseUrl, options), postgres(databaseUrl, options)];
  return {
    producer: { store: new PostgresJobStore(a), transactions: new PostgresTransactions(a) },
    worker: { store: new TracedPostgresJobStore(b), transactions: new PostgresTransactions(b) },
    async warm() {
      await Promise.all(Array.from({ length: max }, () => b`select 1`));
    },
    async reset() {
      const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop schema if exists ${schema} cascade; create schema ${schema}`);
      await admin.end();
      await migrateJobs(a);
    },
    close: () => Promise.all([a.end({ timeout: 5 }), b.end({ timeout: 5 })]).then(() => {}),
  };
}

function redisClients(): Clients {
  const [a, b] = [new Redis(redisUrl, { db: redisDb }), new Redis(redisUrl, { db: redisDb })];
  return {
    producer: {
      store: new RedisJobStore(tcpScripting(a), { requireDurability: "off" }),
      transactions: new InMemoryTransactions(),
    },
    worker: {
      store: new CountingRedisJobStore(tcpScripting(b), { requireDurability: "off" }),
      transactions: new InMemoryTransactions(),
    },
    async warm() {
      await b.ping();
    },
    async reset() {
      await a.flushdb();
    },
    close() {
      a.disconnect();
      b.disconnect();
      return Promise.resolve();
    },
  };
}

const clients = kind === "redis" ? redisClients() : pgClients();
const producer = app(clients.producer.store, clients.producer.transactions);
const producerJobs = producer.backgroundJobs as BackgroundJobsApi;
let worker: ReturnType<typeof app> | undefined;

const result = await runMeasure({
  reset: () => clients.reset(),
  enqueue: (n: number) => producerJobs.enqueue(Noop, { n }).then(() => {}),
  enqueueBatch: (ns: number[]) =>
    producerJobs.queue.enqueueMany(Noop, ns.map((n) => ({ payload: { n } }))).then(() => {}),
  async startWorker(concurrency: number, started: () => void, begin: () => void) {
    onNoopStart(started);
    worker = app(clients.worker.store, clients.worker.transactions, concurrency);
    await clients.warm();
    begin();
    await worker.start();
  },
  completed: () => Promise.resolve(completed),
  stopWorker: () => worker!.stop(),
  close: () => clients.close(),
}, params);
console.log(JSON.stringify(result));
if (trace !== undefined) {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const got = trace.claims.map(([, n]) => n).filter((n) => n > 0);
  console.error(JSON.stringify({
    claims: trace.claims.length,
    claimsWithJobs: got.length,
    meanLimit: mean(trace.claims.map(([l]) => l)),
    meanClaimed: mean(got),
    claimedHistogram: histogram(got),
    completes: trace.completes.length,
    meanCompleted: mean(trace.completes),
    maxInFlight: trace.maxInFlight,
  }));
}

function histogram(xs: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
