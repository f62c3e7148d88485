/**
 * Jobs, side by side, in one run on this machine: kit's Postgres store against `graphile-worker`
 * and `pg-boss`, with `pgbench` as the reference: for processing, the limit of kit's own work
 * (kit's claim and complete statements, kit's batch sizes; bench/jobs/pgbench.ts), for enqueues
 * and latency a bare table; kit's Redis store (TCP, ioredis) against `BullMQ` as the reference,
 * with a limit row for processing (bare LPUSH/LMOVE, kit's batch sizes; bench/jobs/redis_limit.ts).
 * Prints two markdown tables: every row's figure and its ratio to the reference row of its measure
 * (and to the limit), then the targets of issues #7 and #17.
 *
 *   deno run -A bench/jobs_side_by_side.ts
 *
 * Each row runs in a fresh process (kit on Deno, the peers on Node from bench/jobs/*.mjs, installed
 * by `npm ci --prefix bench/peers/jobs` when missing) on a fresh schema (Postgres database `bench`,
 * created when missing) or a flushed Redis db 5; the implementations take turns on each measure,
 * the order rotating from measure to measure (and round to round). Same payload ({ n }), same
 * concurrency, same measuring code (bench/jobs/measure.mjs). Settings of each peer: see its runner;
 * graphile-worker runs twice, with its defaults and with its documented (opt-in) batching on.
 *
 * Environment: DATABASE_URL (a server URL; the database is replaced by BENCH_DATABASE, default
 * `bench`, created when missing; default postgres://postgres@127.0.0.1:5432), REDIS_URL (default redis://127.0.0.1:6379), BENCH_JOBS
 * (default 4000; processing rows take 3x, single enqueues half, batched enqueues 2.5x), BENCH_CONCURRENCY
 * (default 1,10,50), BENCH_LATENCY_SAMPLES (default 50), BENCH_MAX_SECONDS (cap per row, default
 * 10), BENCH_PGBENCH_SECONDS (default 3), BENCH_ROUNDS (default 1; more rounds report medians).
 */
import postgres from "postgres";
import { type Figure, ratioOf, renderTable } from "./jobs/report.ts";
import { redisLimit } from "./jobs/redis_limit.ts";
import { batchLabel, kitClaimBatch, limitClients } from "./jobs/kit_batches.ts";
import {
  pgbenchInsert,
  pgbenchInsertBatch,
  pgbenchKitLimit,
  pgbenchLatency,
  pgbenchMissing,
  type PgbenchResult,
  type PgbenchSettings,
} from "./jobs/pgbench.ts";

const env = (name: string, fallback: string) => Deno.env.get(name) ?? fallback;
const serverUrl = new URL(env("DATABASE_URL", "postgres://postgres@127.0.0.1:5432"));
const adminUrl = Object.assign(new URL(serverUrl), { pathname: "/postgres" }).href;
const database = env("BENCH_DATABASE", "bench");
const benchUrl = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).href;
const redisUrl = env("REDIS_URL", "redis://127.0.0.1:6379");
const jobs = Number(env("BENCH_JOBS", "4000"));
const concurrencies = env("BENCH_CONCURRENCY", "1,10,50").split(",").map(Number);
const samples = Number(env("BENCH_LATENCY_SAMPLES", "50"));
const maxSeconds = Number(env("BENCH_MAX_SECONDS", "10"));
const rounds = Number(env("BENCH_ROUNDS", "1"));
const pgbench: PgbenchSettings = {
  url: benchUrl,
  seconds: Number(env("BENCH_PGBENCH_SECONDS", "3")),
};
const here = (path: string) => new URL(path, import.meta.url).pathname;
const root = here("../");

/** A queue implementation under measure: how to run one row of it. */
interface Contender {
  readonly name: string;
  readonly command: (args: string[]) => [string, string[]];
  readonly env?: Record<string, string>;
}

/** One measure: its row title, the runner's measure, and its job count or concurrency. */
interface Measure {
  readonly title: string;
  readonly measure: "enqueue" | "enqueue-batch" | "process" | "latency";
  readonly jobs: number;
  readonly concurrency: number;
}

const measures: Measure[] = [
  { title: "enqueue, one job per call", measure: "enqueue", jobs: jobs / 2, concurrency: 1 },
  {
    title: "enqueue, 100 jobs per call",
    measure: "enqueue-batch",
    jobs: jobs * 2.5,
    concurrency: 1,
  },
  // Three times the jobs: at concurrency 50 a row of 4,000 lasts under half a second, and its
  // ramp-up (pools filling, the first claims) weighs as much as the steady rate it measures.
  ...concurrencies.map((c): Measure => ({
    title: `process no-op jobs, concurrency ${c}`,
    measure: "process",
    jobs: jobs * 3,
    concurrency: c,
  })),
  { title: "idle enqueue-to-start latency", measure: "latency", jobs, concurrency: 1 },
];

const deno = (kind: string) => (args: string[]): [string, string[]] => [
  Deno.execPath(),
  ["run", "-A", here("./jobs/kit_runner.ts"), kind, ...args],
];
const node = (runner: string) => (args: string[]): [string, string[]] => [
  "node",
  [here(`./jobs/${runner}`), ...args],
];

const skipped: string[] = [];
await ensureDatabase();
const peersReady = await ensurePeers();
const pgContenders: Contender[] = [
  { name: "kit PostgresJobStore", command: deno("pg") },
  ...(peersReady
    ? [
      { name: "graphile-worker", command: node("graphile_worker_runner.mjs") },
      {
        name: "graphile-worker, batching on",
        command: node("graphile_worker_runner.mjs"),
        env: { GRAPHILE_BATCHING: "1" },
      },
      { name: "pg-boss", command: node("pg_boss_runner.mjs") },
    ]
    : []),
];
const redisContenders: Contender[] = [
  ...(peersReady ? [{ name: "BullMQ", command: node("bullmq_runner.mjs") }] : []),
  { name: "kit RedisJobStore (TCP, ioredis)", command: deno("redis") },
];

const started = performance.now();
const pgFigures = [...await referenceFigures(), ...await measureAll(pgContenders)];
const redisFigures = withLimits(await measureAll(redisContenders), await redisLimitFigures());

console.log(
  `\n## Jobs, side by side (${navigator.hardwareConcurrency} cores, ${rounds} round(s), ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s)`,
);
for (const line of skipped) console.log(`skipped: ${line}`);
console.log(
  "Ratios: figure / reference; for throughput higher is better, for latency lower is better.",
);
console.log(
  renderTable(
    "### PostgreSQL 15 (reference: processing, the limit: pgbench running kit's claim and complete statements; enqueue and latency, pgbench on a bare table)",
    pgFigures,
  ),
);
console.log(
  renderTable("### Redis 7 (reference: BullMQ; limit: bare LPUSH/LMOVE)", redisFigures),
);
console.log(targets());

async function ensureDatabase(): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${database}`;
    if (found === undefined) await admin.unsafe(`create database "${database}"`);
  } finally {
    await admin.end();
  }
}

// Installs the peers (npm ci) when missing; answers whether Node 20+ and the peers are there.
async function ensurePeers(): Promise<boolean> {
  const peers = ["graphile-worker", "pg-boss", "BullMQ"];
  const skip = (why: string) => {
    for (const peer of peers) skipped.push(`${peer}: ${why}`);
    return false;
  };
  let version: string;
  try {
    const out = await new Deno.Command("node", { args: ["--version"], stdout: "piped" }).output();
    version = new TextDecoder().decode(out.stdout).trim();
  } catch {
    return skip("node is not installed");
  }
  if (Number(/^v(\d+)/.exec(version)?.[1] ?? 0) < 20) return skip(`needs Node 20+, got ${version}`);
  try {
    await Deno.stat(here("./peers/jobs/node_modules"));
    return true;
  } catch {
    // not installed yet
  }
  // `npm ci` needs a lock that lists every platform's optional packages; a registry mirror that
  // lacks some makes it refuse, and then `npm install --no-save` installs the locked versions.
  let why = "no npm";
  for (const args of [["ci"], ["install", "--no-save"]]) {
    const out = await new Deno.Command("npm", {
      args: [...args, "--prefix", here("./peers/jobs"), "--no-audit", "--no-fund"],
      stdout: "null",
      stderr: "piped",
    }).output().catch(() => undefined);
    if (out?.success === true) return true;
    if (out !== undefined && why === "no npm") {
      why = new TextDecoder().decode(out.stderr).split("\n").find((l) =>
        /error/.test(l) && !/log of this run/.test(l)
      ) ?? "failed";
    }
  }
  return skip(`npm ci --prefix bench/peers/jobs failed (${why.trim()})`);
}

async function referenceFigures(): Promise<Figure[]> {
  const missing = await pgbenchMissing();
  const who = (what: string) => `pgbench, ${what}`;
  const rows: [Measure, string, () => Promise<PgbenchResult>][] = measures.map((m) => {
    switch (m.measure) {
      case "enqueue":
        return [m, who("bare insert"), () => pgbenchInsert(pgbench)];
      case "enqueue-batch":
        return [m, who("bare insert of 100 rows"), () => pgbenchInsertBatch(pgbench)];
      case "process":
        return [
          m,
          `limit: pgbench, kit's claim + complete statements, batches of ${
            batchLabel(kitClaimBatch(m.concurrency))
          }, -c ${limitClients}`,
          () => pgbenchKitLimit(pgbench, m.concurrency, m.jobs),
        ];
      case "latency":
        return [m, who("bare insert then claim"), () => pgbenchLatency(pgbench)];
    }
  });
  const results = rows.map((): (PgbenchResult | string)[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [, , run]] of rows.entries()) {
      let result: PgbenchResult | string;
      if (missing) result = `skipped: ${missing}`;
      else {
        try {
          result = await run();
        } catch (error) {
          result = `failed: ${(error as Error).message}`;
        }
      }
      results[i]!.push(result);
    }
  }
  return rows.flatMap(([m, name], i) =>
    toFigures(m, name, results[i]!).map((f) => m.measure === "process" ? { ...f, limit: true } : f)
  );
}

// The Redis limit of each processing measure: bare LPUSH/LMOVE with kit's batches, every round.
async function redisLimitFigures(): Promise<Figure[]> {
  const processing = measures.filter((m) => m.measure === "process");
  const results = processing.map((): (Record<string, number> | string)[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, m] of processing.entries()) {
      results[i]!.push(
        await redisLimit(redisUrl, 5, m.jobs, kitClaimBatch(m.concurrency)).catch((error) =>
          `failed: ${(error as Error).message}`
        ),
      );
    }
  }
  return processing.flatMap((m, i) =>
    toFigures(
      m,
      `limit: ioredis, LPUSH then LMOVE claim + LMOVE complete, batches of ${
        batchLabel(kitClaimBatch(m.concurrency))
      }, ${limitClients} clients`,
      results[i]!,
    ).map((f) => ({ ...f, limit: true }))
  );
}

// Each limit figure after the rows of its measure.
function withLimits(figures: readonly Figure[], limits: readonly Figure[]): Figure[] {
  const out = [...figures];
  for (const limit of limits) {
    const last = out.findLastIndex((f) => f.measure === limit.measure);
    out.splice(last + 1, 0, limit);
  }
  return out;
}

// Every measure, every contender, `rounds` times, the contenders' order rotating.
async function measureAll(contenders: readonly Contender[]): Promise<Figure[]> {
  const results = new Map<string, (Record<string, number> | string)[]>();
  let turn = 0;
  for (let round = 0; round < rounds; round++) {
    for (const m of measures) {
      const order = contenders.map((_, i) => contenders[(i + turn) % contenders.length]!);
      turn++;
      for (const contender of order) {
        const key = `${m.title}\u0000${contender.name}`;
        results.set(key, [...results.get(key) ?? [], await runRow(contender, m)]);
      }
    }
  }
  return measures.flatMap((m) =>
    contenders.flatMap((c) => toFigures(m, c.name, results.get(`${m.title}\u0000${c.name}`)!))
  );
}

async function runRow(contender: Contender, m: Measure): Promise<Record<string, number> | string> {
  const [command, args] = contender.command([
    m.measure,
    String(Math.round(m.jobs)),
    String(m.concurrency),
    String(samples),
    String(maxSeconds),
  ]);
  const out = await new Deno.Command(command, {
    args,
    cwd: root,
    env: { DATABASE_URL: benchUrl, REDIS_URL: redisUrl, ...contender.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const line = new TextDecoder().decode(out.stdout).trim().split("\n").findLast((l) =>
    l.startsWith("{")
  );
  if (!out.success || line === undefined) {
    const error = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
    return `failed: ${error.slice(0, 200)}`;
  }
  return JSON.parse(line) as Record<string, number>;
}

// One figure per measure (two for latency: p50 and p99), the median over the rounds.
function toFigures(
  m: Measure,
  who: string,
  results: readonly (Record<string, number> | string | PgbenchResult)[],
): Figure[] {
  const failed = results.find((r) => typeof r === "string") as string | undefined;
  const numbers = results.filter((r) => typeof r !== "string") as Record<string, number>[];
  const median = (key: string) => {
    const values = numbers.map((r) => r[key]!).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)]!;
  };
  if (m.measure === "latency") {
    const none = numbers.some((r) => r.samples === 0)
      ? `no sample within the ${maxSeconds} s cap`
      : undefined;
    return ["p50", "p99"].map((q) => ({
      measure: `${m.title} ${q}`,
      who,
      unit: "ms",
      value: failed ?? none ?? median(q),
      ...(failed ?? none ? {} : { note: `${median("samples")} samples` }),
    }));
  }
  const capped = !failed && numbers.some((r) => r.jobs !== undefined && r.jobs < m.jobs);
  return [{
    measure: m.title,
    who,
    unit: "jobs/s",
    value: failed ?? median("rate"),
    ...(capped ? { note: `${median("jobs")} jobs in the ${maxSeconds} s cap` } : {}),
  }];
}

function targets(): string {
  const lines = ["\n### Targets (issues #7 and #17)", ""];
  const check = (label: string, value: number | undefined, goal: number, lower = false) => {
    if (value === undefined) return lines.push(`- ${label}: n/a`);
    const met = lower ? value <= goal : value >= goal;
    lines.push(
      `- ${label}: ${value.toFixed(2)}x (target ${lower ? "≤" : "≥"} ${goal}x) ${
        met ? "met" : "NOT met"
      }`,
    );
  };
  const kit = "kit PostgresJobStore";
  const kitRedis = "kit RedisJobStore (TCP, ioredis)";
  const limitOf = (figures: readonly Figure[], title: string) =>
    figures.find((f) => f.measure === title && f.limit)?.who ?? "";
  for (const c of concurrencies) {
    const title = `process no-op jobs, concurrency ${c}`;
    check(
      `kit PostgreSQL / its limit (pgbench, kit's statements), processing c=${c}`,
      ratioOf(pgFigures, title, kit, limitOf(pgFigures, title)),
      0.7,
    );
    const redis = ratioOf(redisFigures, title, kitRedis, limitOf(redisFigures, title));
    lines.push(
      `- kit Redis / its limit (bare LPUSH/LMOVE), processing c=${c}: ${
        redis === undefined ? "n/a" : `${redis.toFixed(2)}x`
      } (no target)`,
    );
    check(
      `kit / graphile-worker (batching off), processing c=${c}`,
      ratioOf(pgFigures, title, kit, "graphile-worker"),
      1,
    );
    check(
      `kit / graphile-worker with batching on, processing c=${c}`,
      ratioOf(pgFigures, title, kit, "graphile-worker, batching on"),
      1.5,
    );
    check(
      `kit / pg-boss (configured for throughput), processing c=${c}`,
      ratioOf(pgFigures, title, kit, "pg-boss"),
      1.5,
    );
  }
  const idle = pgFigures.find((f) =>
    f.measure === "idle enqueue-to-start latency p50" && f.who === kit
  )?.value;
  lines.push(
    `- kit PostgreSQL idle enqueue-to-start p50: ${
      typeof idle === "number"
        ? `${idle.toFixed(2)} ms (target < 5 ms) ${idle < 5 ? "met" : "NOT met"}`
        : "n/a"
    }`,
  );
  check(
    "kit / graphile-worker with batching on, idle enqueue-to-start p50",
    ratioOf(pgFigures, "idle enqueue-to-start latency p50", kit, "graphile-worker, batching on"),
    1,
    true,
  );
  for (const m of measures) {
    const latency = m.measure === "latency";
    const title = latency ? `${m.title} p50` : m.title;
    check(
      `kit Redis / BullMQ, ${title}`,
      ratioOf(redisFigures, title, kitRedis, "BullMQ"),
      latency ? 1 : 1.2,
      latency,
    );
  }
  return lines.join("\n");
}
