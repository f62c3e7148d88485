/**
 * What keeping each context's jobs in its own schema costs: one `PostgresJobStore` in one schema
 * beside a `ContextRoutedJobStore` of five `PostgresJobStore`s, one schema each, on the same
 * database, the same work: enqueue (a transaction per job, as a use case does), claim and complete
 * everything queue by queue (batches of 10, as a worker at concurrency 10 does), `find` by id, and
 * the dashboard's first page of all queues. Prints the median of the rounds per row.
 *
 * `DATABASE_URL=postgres://... deno run -A bench/jobs/context_routed.ts [jobs] [rounds]`
 *
 * @module
 */
import { systemActor } from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { ContextRoutedJobStore, type JobStore } from "@kit/jobs";
import type { NewJob } from "@kit/jobs/store";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import postgres from "postgres";

const total = Number(Deno.args[0] ?? 2_000);
const rounds = Number(Deno.args[1] ?? 3);
const queues = ["analytics", "availability", "identity", "notifications", "scheduling"];
const base = Deno.env.get("DATABASE_URL");
if (!base) throw new Error("DATABASE_URL is not set");

interface Figures {
  enqueuePerSecond: number;
  processPerSecond: number;
  findMs: number;
  pageMs: number;
}

async function measure(sql: postgres.Sql, store: JobStore): Promise<Figures> {
  const transactions = new PostgresTransactions(sql);
  const now = new Date();
  const ids: string[] = [];
  let started = performance.now();
  for (let i = 0; i < total; i++) {
    const queue = queues[i % queues.length]!;
    const job: NewJob = {
      id: crypto.randomUUID(),
      name: `${queue}.work`,
      queue,
      payload: { i },
      actor: systemActor,
      correlationId: crypto.randomUUID(),
      maxAttempts: 3,
      runAt: now,
      createdAt: new Date(now.getTime() + i),
    };
    ids.push(job.id);
    await transactions.run((unit) => store.jobInsert({ job, unit }));
  }
  const enqueueSeconds = (performance.now() - started) / 1_000;
  started = performance.now();
  const findings = 200;
  for (let i = 0; i < findings; i++) {
    await store.jobFind({ id: ids[(i * 7919) % ids.length]!, reach: {} });
  }
  const findMs = (performance.now() - started) / findings;
  started = performance.now();
  const pages = 50;
  for (let i = 0; i < pages; i++) await store.jobPage({ reach: {}, limit: 50 });
  const pageMs = (performance.now() - started) / pages;
  started = performance.now();
  let done = 0;
  while (done < total) {
    for (const queue of queues) {
      const claimed = await store.jobClaim({
        queue,
        limit: 10,
        now: new Date(),
        leases: {},
        defaultLeaseMs: 30_000,
      });
      if (claimed.length === 0) continue;
      await store.jobCompleteMany!({
        jobs: claimed.map((j) => ({ id: j.id, leaseToken: j.leaseToken })),
        now: new Date(),
      });
      done += claimed.length;
    }
  }
  const processSeconds = (performance.now() - started) / 1_000;
  return {
    enqueuePerSecond: total / enqueueSeconds,
    processPerSecond: total / processSeconds,
    findMs,
    pageMs,
  };
}

async function round(routed: boolean): Promise<Figures> {
  const name = `jobschema_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
  const admin = postgres(base!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base!);
  url.pathname = `/${name}`;
  const sql = postgres(url.href, { max: 4, onnotice: () => {} });
  try {
    let store: JobStore;
    if (routed) {
      for (const schema of queues) await migrateJobs(sql, { schema });
      store = new ContextRoutedJobStore({
        stores: Object.fromEntries(
          queues.map((schema) => [schema, new PostgresJobStore(sql, { schema, listen: false })]),
        ),
      });
    } else {
      await migrateJobs(sql, { schema: "jobs" });
      store = new PostgresJobStore(sql, { schema: "jobs", listen: false });
    }
    return await measure(sql, store);
  } finally {
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const results: Record<string, Figures[]> = { "one schema": [], "a schema per context": [] };
for (let r = 0; r < rounds; r++) {
  results["one schema"]!.push(await round(false));
  results["a schema per context"]!.push(await round(true));
}
console.log(
  `${total} jobs over 5 queues, median of ${rounds} rounds, ${
    new Date().toISOString().slice(0, 10)
  }`,
);
console.log(
  "| Store | enqueue (jobs/s) | claim + complete (jobs/s) | find (ms) | page of 50 (ms) |",
);
console.log("| --- | --: | --: | --: | --: |");
for (const [label, figures] of Object.entries(results)) {
  const m = (pick: (f: Figures) => number) => median(figures.map(pick));
  console.log(
    `| ${label} | ${m((f) => f.enqueuePerSecond).toFixed(0)} | ${
      m((f) => f.processPerSecond).toFixed(0)
    } | ${m((f) => f.findMs).toFixed(2)} | ${m((f) => f.pageMs).toFixed(2)} |`,
  );
}
