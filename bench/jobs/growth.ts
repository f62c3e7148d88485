/**
 * What a jobs table full of finished jobs costs, and what retention gives back (issue #35): one
 * table, a row per size of finished jobs (`BENCH_GROWTH_SIZES`, default 10,000 and 1,000,000) and
 * the same after retention's prune, with the claim rate, the enqueue rate and the jobs
 * dashboard's pages (through the application's HTTP pipeline in process, with the real
 * `jwtAuthenticator`). See `growth_run.ts` for what each figure is.
 *
 * Run with `deno task bench`, or alone: `deno run -A bench/jobs/growth.ts` (needs DATABASE_URL;
 * prints one line and exits when it is not set). It creates a database of its own and drops it.
 * Knobs: `BENCH_GROWTH_SIZES` (comma-separated), `BENCH_GROWTH_CLAIMS` (2,000 jobs claimed per
 * row), `BENCH_GROWTH_ENQUEUES` (1,000 per row), `BENCH_GROWTH_SAMPLES` (30 requests per page,
 * after 3 unmeasured).
 */
import { runGrowth } from "./growth_run.ts";

const url = Deno.env.get("DATABASE_URL");
if (!url) {
  console.log("skipped: the growth benchmark needs DATABASE_URL");
  Deno.exit(0);
}

function numberOf(variable: string, fallback: number): number {
  const text = Deno.env.get(variable);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${variable} is a whole number from 1, got ${JSON.stringify(text)}`);
  }
  return value;
}

const sizes = (Deno.env.get("BENCH_GROWTH_SIZES") ?? "10000,1000000").split(",").map((s) => {
  const n = Number(s.trim());
  if (!Number.isInteger(n) || n < 1_000) {
    throw new RangeError(`BENCH_GROWTH_SIZES holds whole numbers from 1,000, got '${s}'`);
  }
  return n;
});
const options = {
  serverUrl: url,
  sizes,
  claims: numberOf("BENCH_GROWTH_CLAIMS", 2_000),
  enqueues: numberOf("BENCH_GROWTH_ENQUEUES", 1_000),
  samples: numberOf("BENCH_GROWTH_SAMPLES", 30),
  warmup: 3,
  log: (line: string) => console.log(line),
};
const load = await Deno.readTextFile("/proc/loadavg").then((t) =>
  t.split(" ").slice(0, 3).join(" ")
)
  .catch(() => "unknown");
const result = await runGrowth(options);
console.log(
  [
    `\nGrowth of the jobs table on PostgreSQL, ${new Date().toISOString()}, load average at the ` +
    `start ${load}: claims of 10 completed as one batch (${options.claims} jobs a row), enqueues ` +
    `one at a time (${options.enqueues} a row), each dashboard page ${options.samples} times one at ` +
    `a time, in process through the HTTP pipeline with jwtAuthenticator`,
    result.table,
  ].join("\n"),
);
