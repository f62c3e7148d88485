/**
 * The reference rows of the Postgres jobs table, run by `pgbench`:
 *
 * - the limit of kit's processing (`pgbenchKitLimit`): kit's own claim and complete statements,
 *   their text and parameters taken from what `PostgresJobStore` sends (captured at run time, so
 *   they cannot drift from the store), with the worker's batch sizes and its 2 connections in
 *   flight, on a `background_jobs` table made by `migrateJobs` and filled by `jobInsertMany`;
 * - on a bare table: an insert (one row, and 100 rows, per transaction) and the latency of an
 *   insert followed by a one-row claim (the floor of an enqueue-to-start).
 */
import postgres from "postgres";
import { systemActor } from "@kit/kernel";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import type { NewJob } from "../../jobs/store/job_store.ts";
import { type ClaimBatch, kitClaimBatch, limitClients } from "./kit_batches.ts";

/** A pgbench figure: a rate (rows per second), or latency percentiles in ms. */
export type PgbenchResult = { rate: number } | { p50: number; p99: number; samples: number };

/** Where and how long pgbench runs. */
export interface PgbenchSettings {
  /** The `bench` database's URL. */
  readonly url: string;
  /** Seconds per run (`-T`). */
  readonly seconds: number;
}

const table = `
drop table if exists pgbench_jobs;
create table pgbench_jobs (
  id bigserial primary key,
  queue text not null,
  status text not null,
  payload jsonb not null,
  run_at timestamptz not null default now()
);
create index pgbench_jobs_due on pgbench_jobs (queue, run_at, id) where status = 'waiting';`;

const scripts = {
  insert:
    `insert into pgbench_jobs (queue, status, payload) values ('bench', 'waiting', '{"n": 1}');`,
  insertBatch: `insert into pgbench_jobs (queue, status, payload)
  select 'bench', 'waiting', jsonb_build_object('n', g) from generate_series(1, 100) g;`,
  claim: `update pgbench_jobs set status = 'running' where id = (
  select id from pgbench_jobs where queue = 'bench' and status = 'waiting'
  order by run_at, id for update skip locked limit 1);`,
};

/** Checks that pgbench can run here; answers why not when it cannot. */
export async function pgbenchMissing(): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("pgbench", { args: ["--version"], stdout: "null" }).output();
    return out.success ? undefined : "pgbench --version failed";
  } catch {
    return "pgbench is not installed";
  }
}

/** Inserts one job per transaction, one client. */
export async function pgbenchInsert(settings: PgbenchSettings): Promise<PgbenchResult> {
  await reset(settings.url);
  return { rate: (await run(settings, scripts.insert, 1)).tps };
}

/** Inserts 100 jobs per transaction, one client. */
export async function pgbenchInsertBatch(settings: PgbenchSettings): Promise<PgbenchResult> {
  await reset(settings.url);
  return { rate: (await run(settings, scripts.insertBatch, 1)).tps * 100 };
}

/** A statement as postgres.js sends it: its text (`$1`, `$2`, ...) and its parameters. */
export interface SentStatement {
  readonly text: string;
  readonly parameters: readonly string[];
}

/** kit's claim of due jobs and its completion of many, as `PostgresJobStore` sends them. */
export interface KitStatements {
  readonly claim: SentStatement;
  readonly complete: SentStatement;
}

/** The job the kit runner runs: its name, queue and lease (the defaults of `@Background`). */
export const benchJob = { name: "bench.noop", queue: "bench", leaseMs: 30_000 } as const;

/** The claim limit of the captured claim: a value no other parameter has, to find the limit's. */
export const limitSentinel = 987_654;

/**
 * Runs `PostgresJobStore` on a fresh `background_jobs` table (made by `migrateJobs`) in `schema`
 * and answers the statements it sent for a claim of due jobs (the short claim a busy queue uses:
 * the second claim within a second) and for the completion of the claimed jobs.
 */
export async function captureKitStatements(url: string, schema: string): Promise<KitStatements> {
  const sent: SentStatement[] = [];
  const sql = postgres(url, {
    max: 1,
    onnotice: () => {},
    connection: { search_path: schema },
    debug: (_connection, text, parameters) => {
      sent.push({ text, parameters: (parameters as unknown[]).map(serialized) });
    },
  });
  try {
    await migrateJobs(sql);
    const store = new PostgresJobStore(sql, { listen: false });
    const now = new Date();
    await store.jobInsertMany({ jobs: benchJobs(0, 2, new Date(now.getTime() - 60_000)) });
    const claim = {
      queue: benchJob.queue,
      now,
      leases: { [benchJob.name]: benchJob.leaseMs },
      defaultLeaseMs: benchJob.leaseMs,
    };
    // The first claim of a queue also sweeps ended leases; the next one within a second is short.
    await store.jobClaim({ ...claim, limit: 1 });
    sent.length = 0;
    const claimed = await store.jobClaim({ ...claim, limit: limitSentinel });
    const claimStatement = sent.at(-1);
    sent.length = 0;
    const done = await store.jobCompleteMany({
      jobs: claimed.map((job) => ({ id: job.id, leaseToken: job.leaseToken })),
      now,
    });
    const completeStatement = sent.at(-1);
    if (claimed.length !== 1 || done[0] !== true || !claimStatement || !completeStatement) {
      throw new Error("PostgresJobStore did not claim and complete the captured job");
    }
    return { claim: claimStatement, complete: completeStatement };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A pgbench script and the variables it needs (`-D name=value`). */
export interface LimitScript {
  readonly script: string;
  readonly variables: Readonly<Record<string, string>>;
}

/**
 * The pgbench script of the limit row: kit's claim statement, verbatim, its limit `:limit` (a
 * batch of `batch.min` to `batch.max` jobs), wrapped in a CTE whose select hands the claimed ids
 * and lease tokens (and the claimed rows, as kit's claim returns them) to `\gset`; then kit's
 * complete statement, verbatim, on that batch. Every other parameter keeps the captured value.
 */
export function kitLimitScript(statements: KitStatements, batch: ClaimBatch): LimitScript {
  const variables: Record<string, string> = {};
  const claim = substitute(
    statements.claim,
    "claim",
    variables,
    (value) => value === String(limitSentinel) ? "limit" : undefined,
  );
  const complete = substitute(
    statements.complete,
    "complete",
    variables,
    (value) => isCompletionBatch(value) ? "batch" : undefined,
  );
  if (!/:limit\b/.test(claim)) throw new Error("the claim statement has no limit parameter");
  if (!/:batch\b/.test(complete)) throw new Error("the complete statement has no batch parameter");
  const limit = batch.min === batch.max ? String(batch.min) : `random(${batch.min}, ${batch.max})`;
  const script = [
    `\\set limit ${limit}`,
    "with claimed as (",
    claim.trim(),
    ")",
    "select count(*) as claimed,",
    "  coalesce(json_object_agg(id, lease_token), '{}')::text as batch,",
    "  coalesce(json_agg(claimed), '[]')::text as claimed_rows",
    "from claimed \\gset",
    `${complete.trim()};`,
    "",
  ].join("\n");
  return { script, variables };
}

/**
 * The limit of kit's processing at a concurrency: pgbench on `jobs` jobs in a fresh schema
 * (default `kit_pgbench`) of the database, dropped afterwards; `limitClients` clients, each running the script of
 * `kitLimitScript` (claim a batch of kit's size, complete it) until the jobs are claimed. The
 * rate is the jobs completed (`succeeded` in the table) per second of pgbench's run (its
 * transactions over its tps, the connections not counted).
 */
export async function pgbenchKitLimit(
  settings: PgbenchSettings,
  concurrency: number,
  jobs: number,
  schema = "kit_pgbench",
): Promise<PgbenchResult> {
  const batch = kitClaimBatch(concurrency);
  const admin = postgres(settings.url, { max: 1, onnotice: () => {} });
  const fresh = () =>
    admin.unsafe(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  const sql = postgres(settings.url, {
    max: 1,
    onnotice: () => {},
    connection: { search_path: schema },
  });
  try {
    await fresh();
    const statements = await captureKitStatements(settings.url, schema);
    await fresh();
    await migrateJobs(sql);
    const store = new PostgresJobStore(sql, { listen: false });
    const due = new Date(Date.now() - 60_000);
    for (let from = 0; from < jobs; from += 1_000) {
      await store.jobInsertMany({ jobs: benchJobs(from, Math.min(1_000, jobs - from), due) });
    }
    const { script, variables } = kitLimitScript(statements, batch);
    const mean = (batch.min + batch.max) / 2;
    const transactions = Math.ceil(jobs / mean / limitClients);
    const url = new URL(settings.url);
    url.searchParams.set("options", `-csearch_path=${schema}`);
    const { tps, processed } = await run({ ...settings, url: url.href }, script, limitClients, [
      ...Object.entries(variables).map(([name, value]) => `-D${name}=${value}`),
    ], transactions);
    const [row] = await sql`
      select count(*)::int as n from background_jobs where status = 'succeeded'`;
    const n = row!.n as number;
    if (n < jobs * 0.9) throw new Error(`pgbench completed ${n} of ${jobs} jobs`);
    return { rate: n / (processed / tps) };
  } finally {
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop schema if exists ${schema} cascade`).catch(() => {});
    await admin.end({ timeout: 5 });
  }
}

function benchJobs(from: number, count: number, runAt: Date): NewJob[] {
  return Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    name: benchJob.name,
    queue: benchJob.queue,
    payload: { n: from + i },
    actor: systemActor,
    correlationId: crypto.randomUUID(),
    maxAttempts: 5,
    runAt,
    createdAt: new Date(),
  }));
}

// Replaces `$n` by `:<prefix>_p<n>` (its value in `variables`) or by the name `named` gives.
function substitute(
  statement: SentStatement,
  prefix: string,
  variables: Record<string, string>,
  named: (value: string) => string | undefined,
): string {
  return statement.text.replace(/\$(\d+)\b/g, (_, digits: string) => {
    const value = statement.parameters[Number(digits) - 1];
    if (value === undefined) throw new Error(`no parameter ${digits} in ${prefix} statement`);
    const name = named(value);
    if (name !== undefined) return `:${name}`;
    variables[`${prefix}_p${digits}`] = value;
    return `:${prefix}_p${digits}`;
  });
}

function isCompletionBatch(value: string): boolean {
  try {
    // kit's completion takes one JSON object, each held job's id to its lease token.
    const parsed = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) &&
      Object.keys(parsed).length > 0 &&
      Object.values(parsed).every((token) => typeof token === "string");
  } catch {
    return false;
  }
}

function serialized(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/** The latency of an insert then a claim, one client, from pgbench's per-transaction log. */
export async function pgbenchLatency(settings: PgbenchSettings): Promise<PgbenchResult> {
  await reset(settings.url);
  const dir = await Deno.makeTempDir({ prefix: "kit_pgbench_" });
  try {
    await run(settings, `${scripts.insert}\n${scripts.claim}`, 1, [
      "-l",
      `--log-prefix=${dir}/latency`,
    ]);
    const times: number[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const text = await Deno.readTextFile(`${dir}/${entry.name}`);
      for (const line of text.split("\n")) {
        const fields = line.trim().split(/\s+/);
        if (fields.length >= 3) times.push(Number(fields[2]) / 1000);
      }
    }
    times.sort((a, b) => a - b);
    const pct = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))]!;
    return { p50: pct(0.5), p99: pct(0.99), samples: times.length };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function reset(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(table);
  } finally {
    await sql.end();
  }
}

async function run(
  settings: PgbenchSettings,
  script: string,
  clients: number,
  extra: string[] = [],
  transactions?: number,
): Promise<{ tps: number; processed: number }> {
  const file = await Deno.makeTempFile({ prefix: "kit_pgbench_", suffix: ".sql" });
  try {
    await Deno.writeTextFile(file, script);
    const out = await new Deno.Command("pgbench", {
      args: [
        "-n",
        "-M",
        "prepared",
        "-f",
        file,
        "-c",
        String(clients),
        "-j",
        String(Math.min(clients, navigator.hardwareConcurrency)),
        ...(transactions === undefined
          ? ["-T", String(settings.seconds)]
          : ["-t", String(transactions)]),
        ...extra,
        settings.url,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(text)?.[1];
    const processed = /actually processed: (\d+)/.exec(text)?.[1];
    if (!out.success || tps === undefined || processed === undefined) {
      const error = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
      throw new Error(`pgbench failed: ${error}`);
    }
    return { tps: Number(tps), processed: Number(processed) };
  } finally {
    await Deno.remove(file);
  }
}
