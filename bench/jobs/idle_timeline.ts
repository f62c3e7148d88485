/**
 * The timeline of kit's idle start on PostgreSQL (issue #33): `deno run -A
 * bench/jobs/idle_timeline.ts [samples]` runs the idle-start measure of `kit_runner.ts` (one
 * worker at concurrency 1 at `jobsPlugin`'s defaults, a producer application on its own pool, 10
 * ms idle between samples, 3 warm-up samples) and marks, with `performance.now()`, where each
 * sample's milliseconds go: enqueue called → insert written to the socket → its answer read (the
 * commit's) → enqueue answered; the NOTIFY read on the LISTEN socket → postgres.js's listen
 * callback → the claim asked of the store → written → answered → the claim returned → the handler
 * started. It prints the median and mean of each step, and of the whole.
 *
 * Nothing in kit is instrumented: the socket marks come from wrapping `write` and `emit("data")`
 * of `node:net`'s `Socket` in this process only (every postgres.js connection is one), the others
 * from a store subclass and the job's handler. Database: `DATABASE_URL` (default
 * `postgres://postgres@127.0.0.1:5432/bench`), schema `kit_timeline` (made for the run, dropped after).
 */
import net from "node:net";
import postgres from "postgres";
import { composeApplication, defineModule } from "@kit/kernel";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { type BackgroundJobsApi, jobsPlugin } from "@kit/jobs";
import { migrateJobs, PostgresJobStore } from "@kit/jobs/postgres";
import { Noop, onNoopStart } from "./noop_job.ts";

const samples = Number(Deno.args[0] ?? 200);
const schema = "kit_timeline";
const databaseUrl = Deno.env.get("DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/bench";

/** One sample's marks, by name, in ms of `performance.now()`. */
type Marks = Record<string, number>;
let marks: Marks | undefined;
const mark = (name: string, at = performance.now()) => {
  if (marks !== undefined && marks[name] === undefined) marks[name] = at;
};

// The socket marks: a write, and data read, on any postgres.js connection.
const sockets = new WeakMap<object, number>();
let nextSocket = 1;
const socketOf = (s: object) => sockets.get(s) ?? (sockets.set(s, nextSocket), nextSocket++);
/** The socket the insert was written on, and the claim. */
let insertSocket = 0;
let claimSocket = 0;
const proto = net.Socket.prototype as unknown as {
  write(...args: unknown[]): boolean;
  emit(event: string | symbol, ...args: unknown[]): boolean;
};
const write = proto.write;
proto.write = function (this: object, ...args: unknown[]) {
  const at = performance.now();
  if (marks !== undefined) {
    if (marks["insert written"] === undefined) {
      insertSocket = socketOf(this);
      mark("insert written", at);
    } else if (marks["claim asked"] !== undefined && marks["claim written"] === undefined) {
      claimSocket = socketOf(this);
      mark("claim written", at);
    }
  }
  return write.apply(this, args);
};
const emit = proto.emit;
proto.emit = function (this: object, event: string | symbol, ...args: unknown[]) {
  if (event === "data" && marks !== undefined) {
    const at = performance.now();
    const socket = socketOf(this);
    const chunk = args[0] as Uint8Array;
    if (chunk[0] === 0x41 /* A: NotificationResponse */) mark("NOTIFY read", at);
    else if (socket === insertSocket && marks["insert written"] !== undefined) {
      mark("insert answered", at);
    } else if (socket === claimSocket && marks["claim written"] !== undefined) {
      mark("claim answered", at);
    }
  }
  return emit.call(this, event, ...args);
};

class MarkedStore extends PostgresJobStore {
  constructor(sql: postgres.Sql) {
    super(sql);
    const listen = this.jobListen!;
    (this as { jobListen: typeof listen }).jobListen = (onJob) =>
      listen((queue) => {
        mark("listen callback");
        onJob(queue);
      });
  }
  override async jobClaim(params: Parameters<PostgresJobStore["jobClaim"]>[0]) {
    if (marks?.["listen callback"] !== undefined) mark("claim asked");
    const jobs = await super.jobClaim(params);
    if (jobs.length > 0) mark("claim returned");
    return jobs;
  }
}

const app = (sql: postgres.Sql, worker: boolean) =>
  composeApplication({
    modules: [defineModule("bench", { declarations: [Noop] })],
    transactions: new PostgresTransactions(sql),
    errorReporter: { report: (error) => console.error(error) },
    plugins: {
      backgroundJobs: jobsPlugin({
        store: worker ? new MarkedStore(sql) : new PostgresJobStore(sql),
        start: worker,
        ...(worker ? { concurrency: 1 } : {}),
      }),
    },
  });

const options = { max: 10, onnotice: () => {}, connection: { search_path: schema } };
const [a, b] = [postgres(databaseUrl, options), postgres(databaseUrl, options)];
const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop schema if exists ${schema} cascade; create schema ${schema}`);
await admin.end();
await migrateJobs(a);
const producer = app(a, false).backgroundJobs as BackgroundJobsApi;
const worker = app(b, true);
await Promise.all(Array.from({ length: 10 }, () => b`select 1`));
await worker.start();

const order = [
  "insert written",
  "insert answered",
  "NOTIFY read",
  "listen callback",
  "claim asked",
  "claim written",
  "claim answered",
  "claim returned",
  "handler started",
];
const taken: Marks[] = [];
for (let i = 0; i < samples + 3; i++) {
  await new Promise((r) => setTimeout(r, 10));
  const started = new Promise<void>((r) =>
    onNoopStart(() => {
      mark("handler started");
      marks = undefined;
      r();
    })
  );
  marks = { "enqueue called": performance.now() };
  const sample = marks;
  await producer.enqueue(Noop, { n: i });
  sample["enqueue answered"] ??= performance.now();
  await started;
  if (i >= 3) taken.push(sample);
}
await worker.stop();
await a.unsafe(`drop schema ${schema} cascade`);
await Promise.all([a.end({ timeout: 5 }), b.end({ timeout: 5 })]);

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
const complete = taken.filter((m) =>
  [...order, "enqueue answered"].every((name) => m[name] !== undefined)
);
console.log(
  `${complete.length} of ${taken.length} samples with every mark (ms after the one before)`,
);
console.log("| step | median | mean | at (median, from enqueue called) |");
console.log("| --- | ---: | ---: | ---: |");
let previous = "enqueue called";
for (const name of order) {
  const steps = complete.map((m) => m[name]! - m[previous]!);
  const at = complete.map((m) => m[name]! - m["enqueue called"]!);
  console.log(
    `| ${previous} → ${name} | ${median(steps).toFixed(3)} | ${mean(steps).toFixed(3)} | ${
      median(at).toFixed(3)
    } |`,
  );
  previous = name;
}
const answered = complete.map((m) => m["enqueue answered"]! - m["enqueue called"]!);
console.log(
  `| (beside: enqueue answered, from enqueue called) | | | ${median(answered).toFixed(3)} |`,
);
const whole = complete.map((m) => m["handler started"]! - m["enqueue called"]!);
console.log(
  `| whole (p50 / mean) | ${median(whole).toFixed(3)} | ${mean(whole).toFixed(3)} | |`,
);
