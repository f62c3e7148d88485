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
 * concurrency, same measuring code (bench/jobs/measure.mjs). Settings: bench/jobs/settings.mjs and
 * each runner. kit's rows run at its default settings (no prefetch); a second kit row with
 * `prefetch` max(10, c) is paired with graphile-worker's documented local queue of the same size
 * (bench/jobs/rows.ts); graphile-worker also runs at its defaults; pg-boss's `batchSize` is sized
 * so that its polling cap is far above its figure (the cap printed beside it and checked).
 * Processing rates run from the worker's first claim to the LAST COMPLETION (bench/jobs/measure.mjs).
 * Any kit / peer pair closer than 1.2x after `BENCH_ROUNDS` gets 5 interleaved rounds in all;
 * figures of several rounds are medians, printed with their spread. A table missing a row fails.
 *
 * Environment: DATABASE_URL (a server URL; the database is replaced by BENCH_DATABASE, default
 * `bench`, created when missing; default postgres://postgres@127.0.0.1:5432), REDIS_URL (default redis://127.0.0.1:6379), BENCH_JOBS
 * (default 4000; processing rows take 3x, single enqueues half, batched enqueues 2.5x), BENCH_CONCURRENCY
 * (default 1,10,50), BENCH_LATENCY_SAMPLES (default 50), BENCH_MAX_SECONDS (cap per row, default
 * 10), BENCH_PGBENCH_SECONDS (default 3), BENCH_ROUNDS (default 1; more rounds report medians),
 * BENCH_REDIS_DB (default 5).
 */
import postgres from "postgres";
import {
  assertComplete,
  closePairs,
  type Figure,
  type Pair,
  ratioOf,
  ratioRange,
  renderTable,
  summarize,
  verdict,
} from "./jobs/report.ts";
import {
  bullmq,
  closeRounds,
  expectedRows,
  figureTitles,
  graphile,
  graphileLocalQueue,
  kitPg,
  kitPgPrefetch,
  kitRedis,
  type Measure,
  measuresOf,
  pgBoss,
  pgPairs,
  pgRunners,
  redisPairs,
  redisRunners,
  type RowRunner,
  runs,
} from "./jobs/rows.ts";
import { pgBossCapNote } from "./jobs/settings.mjs";
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
const redisDb = Number(env("BENCH_REDIS_DB", "5"));
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

/** A queue implementation under measure: how to run one row of it, or why it cannot run. */
interface Contender extends RowRunner {
  readonly command: (args: string[]) => [string, string[]];
  readonly env?: Record<string, string>;
  readonly skipped?: string;
}

const measures: Measure[] = measuresOf(jobs, concurrencies);

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
const peersMissing = await ensurePeers();
const commands: Record<string, Pick<Contender, "command" | "env" | "skipped">> = {
  [kitPg]: { command: deno("pg") },
  [kitPgPrefetch]: { command: deno("pg"), env: { BENCH_KIT_PREFETCH: "1" } },
  [graphile]: { command: node("graphile_worker_runner.mjs"), skipped: peersMissing },
  [graphileLocalQueue]: {
    command: node("graphile_worker_runner.mjs"),
    env: { GRAPHILE_LOCAL_QUEUE: "1" },
    skipped: peersMissing,
  },
  [pgBoss]: { command: node("pg_boss_runner.mjs"), skipped: peersMissing },
  [bullmq]: { command: node("bullmq_runner.mjs"), skipped: peersMissing },
  [kitRedis]: { command: deno("redis") },
};
const contender = (runner: RowRunner): Contender => ({ ...runner, ...commands[runner.name]! });
const pgContenders = pgRunners.map(contender);
const redisContenders = redisRunners.map(contender);

const started = performance.now();
const closeNotes: string[] = [];
const pgFigures = [...await referenceFigures(), ...await measureAll(pgContenders, pgPairs)];
const redisFigures = withLimits(
  await measureAll(redisContenders, redisPairs),
  await redisLimitFigures(),
);
assertComplete("PostgreSQL table", pgFigures, expectedRows(measures, pgContenders));
assertComplete("Redis table", redisFigures, expectedRows(measures, redisContenders));

console.log(
  `\n## Jobs, side by side (${navigator.hardwareConcurrency} cores, ${rounds} round(s), ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s)`,
);
for (const line of skipped) console.log(`skipped: ${line}`);
for (const line of closeNotes) console.log(line);
console.log(
  "Ratios: figure / reference; for throughput higher is better, for latency lower is better.",
);
console.log(
  "Processing rates: jobs / (the last completion written in the store - the worker's start, " +
    "its connections made beforehand, its first claim counted); " +
    "a figure of several rounds is their median, with the least and most beside it.",
);
console.log(
  renderTable(
    "### PostgreSQL 15 (reference: processing, the limit: pgbench running kit's claim and complete statements; enqueue and latency, pgbench on a bare table)",
    pgFigures,
  ),
);
console.log(settingsOf(pgContenders));
console.log(
  renderTable("### Redis 7 (reference: BullMQ; limit: bare LPUSH/LMOVE)", redisFigures),
);
console.log(settingsOf(redisContenders));
console.log(targets());

// Each row's settings, and the docs they follow, under its table.
function settingsOf(runners: readonly RowRunner[]): string {
  return ["", "Settings:", ...runners.map((r) => `- ${r.name}: ${r.settings}`)].join("\n");
}

async function ensureDatabase(): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${database}`;
    if (found === undefined) await admin.unsafe(`create database "${database}"`);
  } finally {
    await admin.end();
  }
}

// Installs the peers (npm ci) when missing; answers why they cannot run (Node 20+ and the peers
// are needed), or undefined when they can. Their rows stay in the tables, saying why.
async function ensurePeers(): Promise<string | undefined> {
  const peers = ["graphile-worker", "pg-boss", "BullMQ"];
  const skip = (why: string) => {
    for (const peer of peers) skipped.push(`${peer}: ${why}`);
    return `skipped: ${why}`;
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
    return undefined;
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
    if (out?.success === true) return undefined;
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
          `limit: pgbench, kit's claim + complete statements, batches of kit's prefetch row (${
            batchLabel(kitClaimBatch(m.concurrency))
          }), -c ${limitClients}`,
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
        await redisLimit(redisUrl, redisDb, m.jobs, kitClaimBatch(m.concurrency)).catch((error) =>
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

// Every measure, every contender that runs it, `rounds` times, the contenders' order rotating;
// then, for each measure, the pairs closer than 1.2x get rounds of their own rows, interleaved,
// until they have `closeRounds` (5).
async function measureAll(
  contenders: readonly Contender[],
  pairs: readonly Pair[],
): Promise<Figure[]> {
  const results = new Map<string, (Record<string, number> | string)[]>();
  const key = (m: Measure, c: Contender) => `${m.title}\u0000${c.name}`;
  let turn = 0;
  const round = async (m: Measure, who: readonly Contender[]) => {
    const order = who.map((_, i) => who[(i + turn) % who.length]!);
    turn++;
    for (const c of order) {
      results.set(key(m, c), [...results.get(key(m, c)) ?? [], await runRow(c, m)]);
    }
  };
  for (let r = 0; r < rounds; r++) {
    for (const m of measures) await round(m, contenders.filter((c) => runs(c, m)));
  }
  const figures = () =>
    measures.flatMap((m) =>
      contenders.filter((c) => runs(c, m)).flatMap((c) =>
        toFigures(m, c.name, results.get(key(m, c))!)
      )
    );
  for (const m of measures) {
    const close = closePairs(figures(), figureTitles(m)[0]!, pairs);
    if (close.length === 0) continue;
    const names = new Set(close.flat());
    const who = contenders.filter((c) =>
      names.has(c.name) && runs(c, m) && c.skipped === undefined
    );
    if (who.length < 2) continue;
    const have = Math.min(...who.map((c) => results.get(key(m, c))!.length));
    for (let r = have; r < closeRounds; r++) await round(m, who);
    closeNotes.push(
      `closer than 1.2x after ${have} round(s), given ${
        Math.max(have, closeRounds)
      } interleaved: ${m.title}: ${close.map(([a, b]) => `${a} / ${b}`).join(", ")}`,
    );
  }
  return figures();
}

async function runRow(contender: Contender, m: Measure): Promise<Record<string, number> | string> {
  if (contender.skipped !== undefined) return contender.skipped;
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
    env: {
      DATABASE_URL: benchUrl,
      REDIS_URL: redisUrl,
      BENCH_REDIS_DB: String(redisDb),
      ...contender.env,
    },
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

// One figure per measure (two for latency: p50 and p99), the median over the rounds with their
// spread; a runner with a polling cap (pg-boss) has it checked against its figure and printed.
function toFigures(
  m: Measure,
  who: string,
  results: readonly (Record<string, number> | string | PgbenchResult)[],
): Figure[] {
  const failed = results.find((r) => typeof r === "string") as string | undefined;
  const numbers = results.filter((r) => typeof r !== "string") as Record<string, number>[];
  const summary = (key: string) => summarize(numbers.map((r) => r[key]!));
  if (m.measure === "latency") {
    const none = numbers.some((r) => r.samples === 0)
      ? `no sample within the ${maxSeconds} s cap`
      : undefined;
    return ["p50", "p99"].map((q) => ({
      measure: `${m.title} ${q}`,
      who,
      unit: "ms",
      ...(failed ?? none ? { value: failed ?? none! } : {
        value: summary(q).median,
        spread: summary(q).spread,
        note: `${summary("samples").median} samples`,
      }),
    }));
  }
  if (failed !== undefined) return [{ measure: m.title, who, unit: "jobs/s", value: failed }];
  const { median, spread } = summary("rate");
  const notes: string[] = [];
  const fewest = Math.min(...numbers.map((r) => r.jobs ?? m.jobs));
  const empty = numbers.filter((r) => (r.jobs ?? m.jobs) === 0).length;
  if (empty > 0) {
    // A round that completed nothing has no rate to read, only a time it took longer than.
    const most = Math.max(...numbers.map((r) => r.rate!));
    return [{
      measure: m.title,
      who,
      unit: "jobs/s",
      value: `no job completed within the ${maxSeconds} s cap in ${empty} of ${numbers.length} ` +
        `round(s) (the best round: ${Math.round(most).toLocaleString("en-US")} jobs/s)`,
    }];
  }
  if (fewest < m.jobs) {
    notes.push(
      `${fewest} of ${m.jobs} jobs completed within the ${maxSeconds} s cap in its slowest round`,
    );
  }
  if (numbers.some((r) => r.cap !== undefined)) {
    notes.push(pgBossCapNote(median, m.concurrency, m.jobs).note);
  }
  return [{
    measure: m.title,
    who,
    unit: "jobs/s",
    value: median,
    spread,
    ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
  }];
}

function targets(): string {
  const lines = [
    "\n### Targets (issues #7, #17 and #33)",
    "",
    "A verdict reads the two rows' spreads: met when even their least favourable rounds meet the " +
    "target, NOT met when even their most favourable miss it, else within run-to-run spread.",
    "",
  ];
  const check = (
    label: string,
    figures: readonly Figure[],
    measure: string,
    who: string,
    other: string,
    goal: number,
    lower = false,
  ) => {
    const range = ratioRange(figures, measure, who, other);
    if (range === undefined) return lines.push(`- ${label}: n/a`);
    const spread = range.low === range.high
      ? ""
      : `, ${range.low.toFixed(2)}-${range.high.toFixed(2)}x across rounds`;
    lines.push(
      `- ${label}: ${range.median.toFixed(2)}x${spread} (target ${lower ? "≤" : "≥"} ${goal}x) ${
        verdict(range, goal, lower)
      }`,
    );
  };
  const limitOf = (figures: readonly Figure[], title: string) =>
    figures.find((f) => f.measure === title && f.limit)?.who ?? "";
  for (const c of concurrencies) {
    const title = `process no-op jobs, concurrency ${c}`;
    check(
      `kit PostgreSQL, prefetch / its limit (pgbench, kit's statements and prefetch batches), c=${c}`,
      pgFigures,
      title,
      kitPgPrefetch,
      limitOf(pgFigures, title),
      0.8,
    );
    const redis = ratioOf(redisFigures, title, kitRedis, limitOf(redisFigures, title));
    lines.push(
      `- kit Redis / its limit (bare LPUSH/LMOVE), processing c=${c}: ${
        redis === undefined ? "n/a" : `${redis.toFixed(2)}x`
      } (no target)`,
    );
    check(
      `kit (defaults) / graphile-worker (defaults), processing c=${c}`,
      pgFigures,
      title,
      kitPg,
      graphile,
      1.5,
    );
    check(
      `kit, prefetch / graphile-worker, equal local queue, processing c=${c}`,
      pgFigures,
      title,
      kitPgPrefetch,
      graphileLocalQueue,
      1.5,
    );
    check(
      `kit (defaults) / pg-boss (cap far above its rate), processing c=${c}`,
      pgFigures,
      title,
      kitPg,
      pgBoss,
      1.5,
    );
  }
  const idle = pgFigures.find((f) =>
    f.measure === "idle enqueue-to-start latency p50" && f.who === kitPg
  )?.value;
  lines.push(
    `- kit PostgreSQL idle enqueue-to-start p50: ${
      typeof idle === "number"
        ? `${idle.toFixed(2)} ms (target < 3 ms) ${idle < 3 ? "met" : "NOT met"}`
        : "n/a"
    }`,
  );
  check(
    "kit PostgreSQL single enqueue / a bare insert",
    pgFigures,
    "enqueue, one job per call",
    kitPg,
    "pgbench, bare insert",
    0.8,
  );
  for (const m of measures) {
    const latency = m.measure === "latency";
    const title = figureTitles(m)[0]!;
    check(
      `kit Redis (defaults) / BullMQ, ${title}`,
      redisFigures,
      title,
      kitRedis,
      bullmq,
      latency ? 1 : 1.2,
      latency,
    );
  }
  return lines.join("\n");
}
