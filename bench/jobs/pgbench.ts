/**
 * The reference rows of the Postgres jobs table: `pgbench` on a bare table, so the database's own
 * limit on this machine — a bare insert (one row, and 100 rows, per transaction), the bare claim
 * `UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1)` at each concurrency, and the
 * latency of an insert followed by a claim (the floor of an enqueue-to-start).
 */
import postgres from "postgres";

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
  await reset(settings.url, 0);
  return { rate: (await run(settings, scripts.insert, 1)).tps };
}

/** Inserts 100 jobs per transaction, one client. */
export async function pgbenchInsertBatch(settings: PgbenchSettings): Promise<PgbenchResult> {
  await reset(settings.url, 0);
  return { rate: (await run(settings, scripts.insertBatch, 1)).tps * 100 };
}

/**
 * Claims one job per transaction with `clients` connections, on a table filled beforehand; fails
 * when the run emptied it (its rate would then count claims that found nothing).
 */
export async function pgbenchClaim(
  settings: PgbenchSettings,
  clients: number,
): Promise<PgbenchResult> {
  const rows = 400_000;
  await reset(settings.url, rows);
  const { tps } = await run(settings, scripts.claim, clients);
  if (tps * settings.seconds >= rows * 0.95) {
    throw new Error(`pgbench claimed all ${rows} rows; lower BENCH_PGBENCH_SECONDS`);
  }
  return { rate: tps };
}

/** The latency of an insert then a claim, one client, from pgbench's per-transaction log. */
export async function pgbenchLatency(settings: PgbenchSettings): Promise<PgbenchResult> {
  await reset(settings.url, 0);
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

async function reset(url: string, rows: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(table);
    if (rows > 0) {
      await sql.unsafe(`insert into pgbench_jobs (queue, status, payload, run_at)
        select 'bench', 'waiting', jsonb_build_object('n', g),
          now() - interval '1 hour' + g * interval '1 microsecond'
        from generate_series(1, ${rows}) g`);
      await sql.unsafe("vacuum analyze pgbench_jobs");
    }
  } finally {
    await sql.end();
  }
}

async function run(
  settings: PgbenchSettings,
  script: string,
  clients: number,
  extra: string[] = [],
): Promise<{ tps: number }> {
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
        "-T",
        String(settings.seconds),
        ...extra,
        settings.url,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(text)?.[1];
    if (!out.success || tps === undefined) {
      throw new Error(`pgbench failed: ${new TextDecoder().decode(out.stderr).trim()}`);
    }
    return { tps: Number(tps) };
  } finally {
    await Deno.remove(file);
  }
}
