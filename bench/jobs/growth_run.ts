/**
 * The growth harness (issue #35): for each size, a fresh schema of a database of its own filled
 * with that many finished jobs (one `generate_series` insert, `finishedFillSql`), then measured:
 * the claim (one worker claiming 10 at a time and completing each batch, jobs/s), the enqueue (one
 * job at a time, jobs/s) and the jobs dashboard's pages (p50 / p99), and measured again after
 * retention's pruner (the worker's `Pruner`, default retention) has run until nothing is left to
 * prune, and `vacuum analyze` has run as autovacuum would.
 *
 * The dashboard is measured in process, through the application's whole HTTP pipeline
 * (`application.http.fetch`: no socket, no server) with the real authenticator
 * (`jwtAuthenticator`, HS256, one signed token, so its verified-token cache answers after the
 * first request, as for an operator's browser), the access policy and response validation.
 *
 * @module
 */
import postgres from "postgres";
import { SignJWT } from "jose";
import { metrics } from "@opentelemetry/api";
import { accessPolicy, composeApplication } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { httpPlugin, jwtAuthenticator } from "@kit/http";
import { jobsPlugin } from "@kit/jobs";
import { jobsDashboard } from "@kit/jobs/dashboard";
import type { NewJob } from "@kit/jobs/store";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { Pruner } from "../../jobs/worker/pruner.ts";
import {
  type FilledStatus,
  finishedFillSql,
  growthPages,
  growthQueues,
  growthRows,
  renderGrowthTable,
} from "./growth_table.ts";

/** What a run measures. */
export interface GrowthOptions {
  /** The PostgreSQL server (any database of it): the run creates its own database and drops it. */
  readonly serverUrl: string;
  /** The numbers of finished jobs, a row each (and a row after the prune). */
  readonly sizes: readonly number[];
  /** Jobs claimed and completed per row. */
  readonly claims: number;
  /** Jobs enqueued one at a time per row. */
  readonly enqueues: number;
  /** Requests per dashboard page per row, after `warmup` unmeasured. */
  readonly samples: number;
  /** Unmeasured requests per page first. */
  readonly warmup: number;
  /** Where progress lines go. */
  readonly log: (line: string) => void;
}

/** What a run answers. */
export interface GrowthResult {
  /** The markdown table. */
  readonly table: string;
  /** The finished jobs each size's fill left, read back (`jobCounts`), by queue and status. */
  readonly filled: ReadonlyMap<number, ReadonlyMap<string, Record<FilledStatus, number>>>;
  /** The jobs retention's prune removed, by size. */
  readonly pruned: ReadonlyMap<number, number>;
}

const secret = new TextEncoder().encode("growth-benchmark-secret-of-32-bytes!");
const issuer = "https://id.growth.test";
const audience = "ops";

/** Runs the harness; every database it made is dropped when it ends. */
export async function runGrowth(options: GrowthOptions): Promise<GrowthResult> {
  const name = `bench_growth_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(options.serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(options.serverUrl);
  url.pathname = `/${name}`;
  const figures = new Map<string, Record<string, string>>();
  const filled = new Map<number, Map<string, Record<FilledStatus, number>>>();
  const pruned = new Map<number, number>();
  try {
    const labels = growthRows(options.sizes);
    for (const [i, size] of options.sizes.entries()) {
      const schema = `growth_${size}`;
      const sql = postgres(url.href, { max: 4, onnotice: () => {} });
      try {
        await sql.unsafe(`create schema ${schema}`);
        await migrateJobs(sql, { schema });
        const scoped = postgres(url.href, {
          max: 4,
          onnotice: () => {},
          connection: { search_path: schema },
        });
        try {
          const result = await measureSize(scoped, size, options);
          figures.set(labels[2 * i]!, result.before);
          figures.set(labels[2 * i + 1]!, result.after);
          filled.set(size, result.filled);
          pruned.set(size, result.pruned);
        } finally {
          await scoped.end({ timeout: 5 });
        }
        // The next size starts on a free disk: a million rows weigh about 650 MB.
        await sql.unsafe(`drop schema ${schema} cascade`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    }
    return { table: renderGrowthTable(options.sizes, figures), filled, pruned };
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

async function measureSize(
  sql: postgres.Sql,
  size: number,
  options: GrowthOptions,
): Promise<{
  before: Record<string, string>;
  after: Record<string, string>;
  filled: Map<string, Record<FilledStatus, number>>;
  pruned: number;
}> {
  const now = Date.now();
  const store = new PostgresJobStore(sql, { listen: false });
  const loading = performance.now();
  // Finished two days ago: past the default retention of succeeded and cancelled jobs (24 h),
  // within that of dead ones (7 days), so the prune leaves the dead.
  const start = new Date(now - 2 * 86_400_000 - size - 1_000);
  for (let from = 1; from <= size; from += 250_000) {
    await sql.unsafe(finishedFillSql(from, Math.min(size, from + 249_999)), [start]);
  }
  await sql`vacuum analyze background_jobs`;
  options.log(
    `${size.toLocaleString("en-US")} finished jobs filled in ${
      ((performance.now() - loading) / 1000).toFixed(1)
    } s`,
  );
  const filled = new Map<string, Record<FilledStatus, number>>();
  for (const counts of await store.jobCounts({ reach: {} })) {
    filled.set(counts.queue, {
      succeeded: counts.succeeded,
      cancelled: counts.cancelled,
      dead: counts.dead,
    });
  }
  const before = await measure(sql, store, now, "live-1", options);
  const pruner = new Pruner({
    store,
    clock: new TestClock(now),
    queues: [...growthQueues],
    retention: {},
    logger: { log: () => {} },
    meter: metrics.getMeter("bench-growth"),
  });
  const pruning = performance.now();
  let removed = 0;
  for (;;) {
    const pass = await pruner.pass();
    const n = Object.values(pass).reduce(
      (sum, s) => sum + (s.succeeded ?? 0) + (s.cancelled ?? 0) + (s.dead ?? 0),
      0,
    );
    removed += n;
    if (n === 0) break;
  }
  const pruneSeconds = (performance.now() - pruning) / 1000;
  await sql`vacuum analyze background_jobs`;
  options.log(
    `pruned ${removed.toLocaleString("en-US")} jobs in ${pruneSeconds.toFixed(1)} s (${
      (removed / Math.max(pruneSeconds, 0.001)).toFixed(0)
    } jobs/s), then vacuum analyze`,
  );
  const after = await measure(sql, store, now, "live-2", options);
  return { before, after, filled, pruned: removed };
}

function job(n: number, queue: string, runAt: number): NewJob {
  return {
    id: crypto.randomUUID(),
    name: `${queue}.work`,
    queue,
    payload: { n },
    actor: { kind: "system", id: "system", roles: [], tenants: [], attributes: {} },
    tenantId: "t1",
    correlationId: "growth",
    maxAttempts: 3,
    runAt: new Date(runAt),
    createdAt: new Date(runAt),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** One row: claims, enqueues, then the dashboard's pages, on the table as it is. */
async function measure(
  sql: postgres.Sql,
  store: PostgresJobStore,
  now: number,
  queue: string,
  options: GrowthOptions,
): Promise<Record<string, string>> {
  for (let i = 0; i < options.claims; i += 500) {
    await store.jobInsertMany({
      jobs: Array.from(
        { length: Math.min(500, options.claims - i) },
        (_, k) => job(i + k, queue, now - 60_000),
      ),
    });
  }
  await sql`analyze background_jobs`;
  let claimed = 0;
  const claiming = performance.now();
  for (;;) {
    const jobs = await store.jobClaim({
      queue,
      limit: 10,
      now: new Date(now),
      leases: {},
      defaultLeaseMs: 60_000,
    });
    if (jobs.length === 0) break;
    claimed += jobs.length;
    await store.jobCompleteMany({
      jobs: jobs.map((j) => ({ id: j.id, leaseToken: j.leaseToken })),
      now: new Date(now),
    });
  }
  const claimSeconds = (performance.now() - claiming) / 1000;
  if (claimed !== options.claims) {
    throw new Error(`claimed ${claimed} of the ${options.claims} jobs enqueued in ${queue}`);
  }
  const enqueuing = performance.now();
  for (let i = 0; i < options.enqueues; i++) {
    await store.jobInsert({ job: job(i, `${queue}-later`, now + 3_600_000) });
  }
  const enqueueSeconds = (performance.now() - enqueuing) / 1000;
  const pages = await measurePages(sql, store, options);
  const [{ kept, bytes }] = await sql<[{ kept: number; bytes: string }]>`
    select count(*)::int as kept, pg_total_relation_size('background_jobs')::text as bytes
    from background_jobs`;
  return {
    kept: kept.toLocaleString("en-US"),
    tableMb: (Number(bytes) / 1_048_576).toFixed(0),
    claim: (claimed / claimSeconds).toFixed(0),
    enqueue: (options.enqueues / enqueueSeconds).toFixed(0),
    ...pages,
  };
}

/** Each dashboard page, `samples` times one at a time after `warmup`: "p50 / p99". */
async function measurePages(
  sql: postgres.Sql,
  store: PostgresJobStore,
  options: GrowthOptions,
): Promise<Record<string, string>> {
  const dashboard = jobsDashboard({ prefix: "/ops/jobs", store });
  const application = composeApplication({
    modules: [dashboard.module],
    accessPolicy: accessPolicy({ grants: { operator: Object.values(dashboard.permissions) } }),
    plugins: {
      backgroundJobs: jobsPlugin({ store }),
      http: httpPlugin({
        authenticators: [
          jwtAuthenticator({ key: secret, algorithms: ["HS256"], issuer, audience }),
        ],
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
        routes: dashboard.routes,
      }),
    },
  });
  try {
    const token = await new SignJWT({ roles: ["operator"], tenants: ["t1"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("ops-1")
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(secret);
    const http = application.http!;
    const get = async (path: string): Promise<Record<string, unknown>> => {
      const response = await http.fetch(
        new Request(`http://ops.test/ops/jobs${path}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      if (response.status !== 200) {
        throw new Error(`${path}: ${response.status} ${await response.text()}`);
      }
      return await response.json();
    };
    let after: string | undefined;
    for (let page = 1; page < 20; page++) {
      after = (await get(`/jobs${after === undefined ? "" : `?after=${after}`}`)).next as
        | string
        | undefined;
      if (after === undefined) throw new Error(`the jobs have no page ${page + 1} of 50`);
    }
    const [{ id }] = await sql<[{ id: string }]>`
      select id from background_jobs where status = 'dead' limit 1`;
    const cells: Record<string, string> = {};
    for (const page of growthPages) {
      const path = page.path.replace("{after}", after!).replace("{id}", id);
      const answer = await get(path);
      const found = (answer.jobs ?? answer.queues ?? [answer.id]) as unknown[];
      if (page.key === "noMatch" ? found.length !== 0 : found.length === 0) {
        throw new Error(`${page.title} (${path}) answered ${found.length} entries`);
      }
      for (let i = 0; i < options.warmup; i++) await get(path);
      const times: number[] = [];
      for (let i = 0; i < options.samples; i++) {
        const started = performance.now();
        await get(path);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      cells[page.key] = `${percentile(times, 0.5).toFixed(1)} / ${
        percentile(times, 0.99).toFixed(1)
      }`;
    }
    return cells;
  } finally {
    await application.stop?.();
  }
}
