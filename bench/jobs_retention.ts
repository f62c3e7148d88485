/**
 * What a jobs table full of finished jobs costs, and what retention gives back, on PostgreSQL:
 * with `BENCH_FINISHED` (default 1,000,000) succeeded jobs in the table, finished two days ago,
 * it measures the claim (one worker claiming 10 at a time and completing them, latency of each
 * claim and jobs/s), the enqueue (one job at a time) and the operators' counts; then prunes them
 * with the worker's `Pruner` (default retention: 24 h), timing the pass and the rows per second,
 * lets `vacuum` run as autovacuum would, and measures the same again. It prints the table size
 * before and after, and what `vacuum full` (the one-off that gives the space back) takes and
 * changes, and how long migration 6 takes to build its index on the loaded table.
 *
 * Run alone: `deno run -A bench/jobs_retention.ts` (needs DATABASE_URL; prints one line and exits
 * when it is not set). It works in a schema of its own and drops it.
 */
import postgres from "postgres";
import { systemActor } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { metrics } from "@opentelemetry/api";
import type { NewJob } from "@kit/jobs/store";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { Pruner } from "../jobs/worker/pruner.ts";
import { jobMigrations } from "../jobs/sql/job_table_migrations.ts";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.log("skipped: the retention benchmark needs DATABASE_URL");
  Deno.exit(0);
}

const finished = Number(Deno.env.get("BENCH_FINISHED") ?? 1_000_000);
const claimed = 5_000;
const enqueued = 2_000;
const schema = `bench_retention_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create schema ${schema}`);
const sql = postgres(url, { max: 4, onnotice: () => {}, connection: { search_path: schema } });
const now = Date.parse("2026-11-26T12:00:00.000Z");

function job(n: number, queue: string): NewJob {
  return {
    id: crypto.randomUUID(),
    name: `${queue}.work`,
    queue,
    payload: { n },
    actor: systemActor,
    correlationId: "bench",
    maxAttempts: 3,
    runAt: new Date(now),
    createdAt: new Date(now),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

interface Figures {
  claimP50: number;
  claimP99: number;
  jobsPerSecond: number;
  enqueueP50: number;
  countsMs: number;
  tableMb: number;
}

/** Claims and completes `claimed` jobs, enqueues `enqueued`, counts; on a fresh queue each run. */
async function measure(store: PostgresJobStore, queue: string): Promise<Figures> {
  for (let i = 0; i < claimed; i += 500) {
    await store.jobInsertMany({
      jobs: Array.from({ length: Math.min(500, claimed - i) }, (_, k) => job(i + k, queue)),
    });
  }
  await sql`analyze background_jobs`;
  const latencies: number[] = [];
  const started = performance.now();
  for (;;) {
    const t = performance.now();
    const jobs = await store.jobClaim({
      queue,
      limit: 10,
      now: new Date(now),
      leases: {},
      defaultLeaseMs: 60_000,
    });
    latencies.push(performance.now() - t);
    if (jobs.length === 0) break;
    await store.jobCompleteMany({
      jobs: jobs.map((j) => ({ id: j.id, leaseToken: j.leaseToken })),
      now: new Date(now),
    });
  }
  const jobsPerSecond = claimed / ((performance.now() - started) / 1000);
  const enqueues: number[] = [];
  for (let i = 0; i < enqueued; i++) {
    const t = performance.now();
    await store.jobInsert({
      job: { ...job(i, `${queue}-later`), runAt: new Date(now + 3_600_000) },
    });
    enqueues.push(performance.now() - t);
  }
  const t = performance.now();
  await store.jobCounts({ reach: {} });
  const countsMs = performance.now() - t;
  latencies.sort((a, b) => a - b);
  enqueues.sort((a, b) => a - b);
  const [{ bytes }] = await sql<[{ bytes: string }]>`
    select pg_total_relation_size('background_jobs')::text as bytes`;
  return {
    claimP50: percentile(latencies, 0.5),
    claimP99: percentile(latencies, 0.99),
    jobsPerSecond,
    enqueueP50: percentile(enqueues, 0.5),
    countsMs,
    tableMb: Number(bytes) / 1_048_576,
  };
}

function row(label: string, f: Figures): string {
  return `| ${label} | ${f.claimP50.toFixed(2)} | ${f.claimP99.toFixed(2)} | ${
    f.jobsPerSecond.toFixed(0)
  } | ${f.enqueueP50.toFixed(2)} | ${f.countsMs.toFixed(0)} | ${f.tableMb.toFixed(0)} |`;
}

try {
  await migrateJobs(sql);
  const store = new PostgresJobStore(sql);
  const load = performance.now();
  await sql.unsafe(
    `insert into background_jobs (id, name, queue, payload, actor, correlation_id, status,
       attempts, max_attempts, run_at, created_at, finished_at)
     select gen_random_uuid()::text, 'old.work', (array['old-a','old-b','old-c','old-d'])[1 + n % 4],
       '{"n":1}'::jsonb, '{"kind":"system","id":"system","roles":[],"tenants":[],"attributes":{}}'::jsonb,
       'bench', 'succeeded', 1, 3, $1::timestamptz, $1::timestamptz, $1::timestamptz + (n || ' ms')::interval
     from generate_series(1, ${finished}) n`,
    [new Date(now - 2 * 86_400_000)],
  );
  await sql`vacuum analyze background_jobs`;
  console.log(
    `${finished.toLocaleString("en")} finished jobs loaded in ${
      ((performance.now() - load) / 1000).toFixed(1)
    } s`,
  );
  // What migration 6 costs on a table this size: its index built again (writes wait meanwhile).
  await sql`drop index background_jobs_retention`;
  const build = performance.now();
  await sql.unsafe(jobMigrations.find((m) => m.version === 6)!.sql);
  console.log(
    `migration 6 (index background_jobs_retention) built in ${
      ((performance.now() - build) / 1000).toFixed(1)
    } s`,
  );
  const before = await measure(store, "live-1");
  const pruner = new Pruner({
    store,
    clock: new TestClock(now),
    queues: ["old-a", "old-b", "old-c", "old-d"],
    retention: {},
    logger: { log: () => {} },
    meter: metrics.getMeter("bench"),
  });
  const pruneStart = performance.now();
  let removed = 0, passes = 0;
  for (;;) {
    const pass = await pruner.pass();
    passes++;
    const n = Object.values(pass).reduce((sum, s) => sum + (s.succeeded ?? 0), 0);
    removed += n;
    if (n === 0) break;
  }
  const pruneSeconds = (performance.now() - pruneStart) / 1000;
  const vacuumStart = performance.now();
  await sql`vacuum analyze background_jobs`;
  const vacuumSeconds = (performance.now() - vacuumStart) / 1000;
  const after = await measure(store, "live-2");
  const fullStart = performance.now();
  await sql`vacuum full analyze background_jobs`;
  const fullSeconds = (performance.now() - fullStart) / 1000;
  const compacted = await measure(store, "live-3");
  console.log(
    `pruned ${removed.toLocaleString("en")} jobs in ${pruneSeconds.toFixed(1)} s (${
      (removed / pruneSeconds).toFixed(0)
    } jobs/s, ${passes} passes of at most 40 batches of 1,000); vacuum ${
      vacuumSeconds.toFixed(1)
    } s; vacuum full ${fullSeconds.toFixed(1)} s`,
  );
  console.log(
    "\n| table | claim p50 ms | claim p99 ms | claim+complete jobs/s | enqueue p50 ms | counts ms | table MB |",
  );
  console.log("|---|---|---|---|---|---|---|");
  console.log(row(`${finished.toLocaleString("en")} finished`, before));
  console.log(row("after pruning + vacuum", after));
  console.log(row("after vacuum full", compacted));
} finally {
  await sql.end();
  await admin.unsafe(`drop schema ${schema} cascade`);
  await admin.end();
}
