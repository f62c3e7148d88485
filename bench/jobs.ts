/**
 * Background jobs on PostgreSQL: enqueue throughput (one job per transaction, and 100 per
 * transaction), processing throughput of no-op jobs (from the worker's start to the last
 * completion written by the store), and enqueue-to-start latency on an idle queue (warm-up first,
 * then measured jobs only, as graphile-worker measures its own).
 *
 * Settings: worker concurrency `BENCH_CONCURRENCY` (default 10), kit's default prefetch (none)
 * unless `BENCH_PREFETCH=n`, poll interval 20 ms (the default is 1 s: the Drizzle and Knex stores
 * are woken by it).
 *
 * Run with `deno task bench` (needs DATABASE_URL; prints one line and exits when it is not set).
 */
import postgres from "postgres";
import {
  type AnyClass,
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineModule,
  Handles,
  type Injectable,
  JobQueue,
  systemActor,
} from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { Background, jobsPlugin } from "@kit/jobs";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { RedisJobStore, tcpScripting } from "@kit/jobs/redis";
import { Redis } from "ioredis";
import type { JobStore } from "@kit/jobs";
import { InMemoryTransactions, type TransactionManager } from "@kit/kernel";
import { drizzle } from "drizzle-orm/postgres-js";
import knex from "knex";
import { createJobTables, DrizzleJobStore, DrizzleTransactions } from "@kit/drizzle";
import { createJobTable, KnexJobStore, KnexTransactions } from "@kit/knex";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.log("skipped: the jobs benchmark needs DATABASE_URL");
  Deno.exit(0);
}

const concurrency = Number(Deno.env.get("BENCH_CONCURRENCY") ?? 10);
const prefetchEnv = Deno.env.get("BENCH_PREFETCH");
const prefetch = prefetchEnv === undefined ? undefined : Number(prefetchEnv);
/** The stores to measure, comma-separated (default all): postgres, drizzle, knex, redis. */
const stores = (Deno.env.get("BENCH_JOB_STORES") ?? "postgres,drizzle,knex,redis").split(",");
const schema = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create schema ${schema}`);
const sql = postgres(url, { max: 12, onnotice: () => {}, connection: { search_path: schema } });

let started: ((at: number) => void) | undefined;
let completed = 0;
let onCompleted: () => void = () => {};
let allDone: Promise<void> = Promise.resolve();

@Background()
class Noop {
  static readonly jobName = "bench.noop";
  run(_payload: { n: number }, _execution: BackgroundJobExecution): Promise<void> {
    started?.(performance.now());
    return Promise.resolve();
  }
}

class EnqueueMany extends Command<void> {
  constructor(readonly count: number) {
    super(systemActor);
  }
}

class EnqueueBatch extends Command<void> {
  constructor(readonly count: number) {
    super(systemActor);
  }
}

@Handles(EnqueueBatch)
class EnqueueBatchHandler {
  constructor(private readonly jobs: JobQueue) {}
  async handle(command: EnqueueBatch): Promise<void> {
    await this.jobs.enqueueMany(
      Noop,
      Array.from({ length: command.count }, (_, n) => ({ payload: { n } })),
    );
  }
}

@Handles(EnqueueMany)
class EnqueueManyHandler {
  constructor(private readonly jobs: JobQueue) {}
  async handle(command: EnqueueMany): Promise<void> {
    for (let n = 0; n < command.count; n++) await this.jobs.enqueue(Noop, { n });
  }
}

try {
  await migrateJobs(sql);
  const tables: string[] = [];
  if (stores.includes("postgres")) {
    tables.push(
      await measure(
        "PostgreSQL (PostgresJobStore, postgres.js)",
        new PostgresJobStore(sql),
        new PostgresTransactions(sql),
      ),
    );
  }
  if (stores.includes("drizzle")) {
    // A client of its own: Drizzle replaces the client's date parsers.
    const client = postgres(url, { max: 12, onnotice: () => {} });
    const db = drizzle(client as never);
    try {
      await createJobTables(db, `${schema}_drizzle`);
      tables.push(
        await measure(
          "PostgreSQL through Drizzle (DrizzleJobStore, postgres.js)",
          new DrizzleJobStore(db, { schema: `${schema}_drizzle` }),
          new DrizzleTransactions(db),
        ),
      );
    } finally {
      await client.end({ timeout: 5 });
      await admin.unsafe(`drop schema if exists ${schema}_drizzle cascade`);
    }
  }
  if (stores.includes("knex")) {
    const db = knex({ client: "pg", connection: url, pool: { min: 0, max: 12 } });
    try {
      await createJobTable(db, `${schema}_knex`);
      tables.push(
        await measure(
          "PostgreSQL through Knex (KnexJobStore, pg)",
          new KnexJobStore(db, { schema: `${schema}_knex` }),
          new KnexTransactions(db),
        ),
      );
    } finally {
      await db.destroy();
      await admin.unsafe(`drop schema if exists ${schema}_knex cascade`);
    }
  }
  const redisUrl = Deno.env.get("REDIS_URL");
  if (stores.includes("redis") && redisUrl) {
    const redis = new Redis(redisUrl);
    const prefix = `bench:${crypto.randomUUID()}:`;
    try {
      tables.push(
        await measure(
          "Redis over TCP (RedisJobStore, ioredis)",
          new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" }),
          new InMemoryTransactions(),
        ),
      );
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  } else if (stores.includes("redis")) {
    tables.push("skipped: the Redis rows need REDIS_URL");
  }
  console.log(
    `\nkit background jobs, ${navigator.hardwareConcurrency} cores, worker concurrency ${concurrency}, ${
      prefetch === undefined ? "no prefetch (kit's default)" : `prefetch ${prefetch}`
    }, poll interval 20 ms; processing: from the worker's start to the last completion written`,
  );
  console.log(tables.join("\n"));
} finally {
  await sql.end({ timeout: 5 });
  await admin.unsafe(`drop schema ${schema} cascade`);
  await admin.end({ timeout: 5 });
}

async function measure(
  title: string,
  store: JobStore,
  transactions: TransactionManager,
): Promise<string> {
  completed = 0;
  const counted = counting(store);
  const app = composeApplication({
    modules: [
      defineModule("bench", {
        declarations: [Noop, EnqueueManyHandler, EnqueueBatchHandler],
        dependencies: new Map<AnyClass, readonly Injectable[]>([
          [EnqueueManyHandler, [JobQueue]],
          [EnqueueBatchHandler, [JobQueue]],
        ]),
      }),
    ],
    transactions,
    errorReporter: { report: (error) => console.error(error) },
    plugins: {
      // kit's default prefetch (none) unless BENCH_PREFETCH says otherwise.
      backgroundJobs: jobsPlugin({
        store: counted,
        start: true,
        concurrency,
        ...(prefetch === undefined ? {} : { prefetch }),
        pollInterval: "20ms",
      }),
    },
  });
  const rows: [string, string][] = [];

  let t = performance.now();
  const single = 2_000;
  for (let i = 0; i < single; i++) await app.commands.execute(new EnqueueMany(1));
  rows.push(["enqueue, one job per transaction", `${rate(single, t)} jobs/s`]);

  t = performance.now();
  for (let i = 0; i < 40; i++) await app.commands.execute(new EnqueueMany(100));
  rows.push(["enqueue, 100 jobs per transaction", `${rate(4_000, t)} jobs/s`]);

  t = performance.now();
  for (let i = 0; i < 40; i++) await app.commands.execute(new EnqueueBatch(100));
  rows.push(["enqueueMany, 100 jobs per call", `${rate(4_000, t)} jobs/s`]);

  const total = single + 8_000;
  allDone = new Promise<void>((resolve) => (onCompleted = () => completed >= total && resolve()));
  t = performance.now();
  await app.start();
  await allDone;
  rows.push([`process no-op jobs, concurrency ${concurrency}`, `${rate(total, t)} jobs/s`]);

  const latencies: number[] = [];
  for (let i = 0; i < 220; i++) {
    const ran = new Promise<number>((resolve) => (started = resolve));
    const before = performance.now();
    await app.commands.execute(new EnqueueMany(1));
    const at = await ran;
    if (i >= 20) latencies.push(at - before);
  }
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.floor(latencies.length * q)]!.toFixed(2);
  rows.push(["idle enqueue-to-start latency p50", `${pct(0.5)} ms`]);
  rows.push(["idle enqueue-to-start latency p99", `${pct(0.99)} ms`]);
  await app.stop();
  return [
    `\n${title}`,
    "| measure | result |",
    "| --- | --- |",
    ...rows.map(([n, v]) => `| ${n} | ${v} |`),
  ].join("\n");
}

/**
 * The store as the worker sees it, counting the jobs whose success it wrote as each completion call
 * returns (`completed`), so that the processing rate ends at the last completion, not the last run.
 */
function counting(store: JobStore): JobStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === "jobCompleteMany" && target.jobCompleteMany !== undefined) {
        return async (params: Parameters<NonNullable<JobStore["jobCompleteMany"]>>[0]) => {
          const held = await target.jobCompleteMany!(params);
          completed += held.filter(Boolean).length;
          onCompleted();
          return held;
        };
      }
      if (property === "jobComplete") {
        return async (params: Parameters<JobStore["jobComplete"]>[0]) => {
          const held = await target.jobComplete(params);
          if (held) completed++;
          onCompleted();
          return held;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function rate(count: number, since: number): string {
  return Math.round(count / ((performance.now() - since) / 1000)).toLocaleString("en-US");
}
