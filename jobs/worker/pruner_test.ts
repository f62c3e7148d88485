import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  type BackgroundJobExecution,
  composeApplication,
  defineModule,
  systemActor,
} from "@kit/kernel";
import type { LogRecord } from "@kit/kernel/logging";
import { TestClock } from "@kit/kernel/testing";
import { Background, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import type { JobStore } from "../store/job_store.ts";
import type { WorkerSettings } from "./worker.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

@Background()
class Remind {
  static readonly jobName = "scheduling.remind";
  run(_payload: unknown, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

const hour = 3_600_000;

/** Lets every task the clock woke run to its next wait (the in-memory store answers at once). */
async function settle(): Promise<void> {
  await turns(20);
}

async function pruned(
  reader: TestReader,
  name = "kit.jobs.pruned",
): Promise<{ attributes: unknown; value: unknown }[]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }))
    .sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)));
}

/** Finishes a job of the queue now, in the status (dead: its only attempt failed). */
async function finish(
  store: JobStore,
  clock: TestClock,
  queue: string,
  status: "succeeded" | "dead" | "cancelled",
): Promise<string> {
  const id = crypto.randomUUID();
  const now = clock.now();
  await store.jobInsert({
    job: {
      id,
      name: `${queue}.x`,
      queue,
      payload: {},
      actor: systemActor,
      correlationId: "c",
      maxAttempts: 1,
      runAt: now,
      createdAt: now,
    },
  });
  if (status === "cancelled") {
    await store.jobCancel({ id, reach: {}, now });
    return id;
  }
  const [claimed] = await store.jobClaim({
    queue,
    limit: 1,
    now,
    leases: {},
    defaultLeaseMs: 1_000,
  });
  assert.equal(claimed?.id, id);
  if (status === "succeeded") await store.jobComplete({ id, leaseToken: claimed.leaseToken, now });
  else {
    await store.jobFail({
      id,
      leaseToken: claimed.leaseToken,
      now,
      errorCode: "E",
      errorMessage: "e",
    });
  }
  return id;
}

function setup(retention?: WorkerSettings["retention"]) {
  const clock = new TestClock(Date.parse("2026-11-26T12:00:00.000Z"));
  const store = new InMemoryJobStore();
  const lines: LogRecord[] = [];
  const reader = new TestReader();
  const app = composeApplication({
    modules: [defineModule("scheduling", { declarations: [Remind] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        start: true,
        ...(retention === undefined ? {} : { retention }),
        logger: { log: (record) => lines.push(record) },
        meterProvider: new MeterProvider({ readers: [reader] }),
      }),
    },
  });
  return { clock, store, lines, reader, app };
}

async function statuses(store: JobStore): Promise<string[]> {
  return (await store.jobList()).map((j) => `${j.queue}:${j.status}`).sort();
}

Deno.test("By default a worker prunes its queue's succeeded and cancelled jobs after 24 h and dead ones after 7 days, counted and logged once per pass", async () => {
  const { clock, store, lines, reader, app } = setup();
  await finish(store, clock, "scheduling", "succeeded");
  await finish(store, clock, "scheduling", "cancelled");
  await finish(store, clock, "scheduling", "dead");
  clock.advance(30 * 60_000);
  await finish(store, clock, "scheduling", "succeeded");
  await app.start();
  try {
    await settle();
    assert.equal((await store.jobList()).length, 4, "nothing is old enough at start");
    clock.advance(24 * hour - 30 * 60_000); // a pass 24 h after the first three finished
    await settle();
    assert.equal((await store.jobList()).length, 4, "kept 24 h, not less");
    clock.advance(60_000);
    await settle();
    assert.deepEqual(await statuses(store), ["scheduling:dead", "scheduling:succeeded"]);
    const line = lines.filter((l) => l.code === "JOBS_PRUNED");
    assert.equal(line.length, 1);
    assert.equal(line[0]?.component, "jobs.pruner");
    assert.equal(line[0]?.count, 2);
    assert.deepEqual(line[0]?.details, {
      queues: { scheduling: { succeeded: 1, cancelled: 1 } },
    });
    clock.advance(30 * 60_000);
    await settle();
    assert.deepEqual(await statuses(store), ["scheduling:dead"]);
    clock.advance(6 * 24 * hour - 60 * 60_000);
    await settle();
    assert.deepEqual(await statuses(store), ["scheduling:dead"], "dead jobs are kept 7 days");
    clock.advance(60 * 60_000);
    await settle();
    assert.deepEqual(await statuses(store), []);
    assert.deepEqual(await pruned(reader), [
      { attributes: { queue: "scheduling", status: "cancelled" }, value: 1 },
      { attributes: { queue: "scheduling", status: "dead" }, value: 1 },
      { attributes: { queue: "scheduling", status: "succeeded" }, value: 2 },
    ]);
    assert.equal(lines.filter((l) => l.code === "JOBS_PRUNED").length, 3);
  } finally {
    await app.stop();
  }
});

Deno.test("A queue's rule overrides the top rule field by field, a count bounds each status, and the rules' queues are pruned too", async () => {
  const { clock, store, lines, app } = setup({
    succeeded: "1h",
    dead: false,
    maxCount: 2,
    interval: "10m",
    queues: { billing: { succeeded: false, maxCount: 1 } },
  });
  for (let i = 0; i < 4; i++) await finish(store, clock, "scheduling", "dead");
  await finish(store, clock, "scheduling", "succeeded");
  for (let i = 0; i < 3; i++) await finish(store, clock, "billing", "succeeded");
  await finish(store, clock, "billing", "cancelled");
  await app.start();
  try {
    await settle();
    assert.deepEqual(await statuses(store), [
      "billing:cancelled",
      "billing:succeeded",
      "scheduling:dead",
      "scheduling:dead",
      "scheduling:succeeded",
    ]);
    clock.advance(60 * 60_000 + 1);
    await settle();
    assert.deepEqual(await statuses(store), [
      "billing:cancelled",
      "billing:succeeded",
      "scheduling:dead",
      "scheduling:dead",
    ]);
    clock.advance(30 * 24 * hour);
    await settle();
    assert.deepEqual(await statuses(store), [
      "billing:succeeded",
      "scheduling:dead",
      "scheduling:dead",
    ]);
    assert.equal(lines.filter((l) => l.code === "JOBS_PRUNED").length, 3);
  } finally {
    await app.stop();
  }
});

Deno.test("retention: false keeps finished jobs and says so at start", async () => {
  const { clock, store, lines, app } = setup(false);
  await finish(store, clock, "scheduling", "succeeded");
  await app.start();
  try {
    clock.advance(30 * 24 * hour);
    await settle();
    assert.deepEqual(await statuses(store), ["scheduling:succeeded"]);
    const off = lines.filter((l) => l.code === "RETENTION_OFF");
    assert.equal(off.length, 1);
    assert.equal(off[0]?.level, "warn");
    assert.deepEqual(off[0]?.details, { queues: ["scheduling"] });
  } finally {
    await app.stop();
  }
});

Deno.test("A failing prune pass is counted each time (kit.jobs.prune.failed, by queue) and logged once until one succeeds; a store that cannot prune is logged at start", async () => {
  const clock = new TestClock(Date.parse("2026-11-26T12:00:00.000Z"));
  let broken = true;
  class BrokenStore extends InMemoryJobStore {
    override jobPrune(params: Parameters<InMemoryJobStore["jobPrune"]>[0]) {
      return broken ? Promise.reject(new Error("store down")) : super.jobPrune(params);
    }
  }
  const lines: LogRecord[] = [];
  const store = new BrokenStore();
  const reader = new TestReader();
  const app = composeApplication({
    modules: [defineModule("scheduling", { declarations: [Remind] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        start: true,
        logger: { log: (r) => lines.push(r) },
        meterProvider: new MeterProvider({ readers: [reader] }),
      }),
    },
  });
  await finish(store, clock, "scheduling", "succeeded");
  await app.start();
  try {
    await settle();
    assert.deepEqual(await pruned(reader, "kit.jobs.prune.failed"), [
      { attributes: { queue: "scheduling" }, value: 1 },
    ]);
    clock.advance(25 * hour);
    await settle();
    assert.equal(lines.filter((l) => l.code === "PRUNE_FAILED").length, 1);
    const failedPasses = (await pruned(reader, "kit.jobs.prune.failed"))[0]!.value as number;
    assert.ok(failedPasses >= 2, `each failed pass counted, got ${failedPasses}`);
    broken = false;
    clock.advance(60_000);
    await settle();
    assert.deepEqual(await pruned(reader, "kit.jobs.prune.failed"), [
      { attributes: { queue: "scheduling" }, value: failedPasses },
    ], "a pass that succeeds is not counted");
    assert.deepEqual(lines.filter((l) => l.component === "jobs.pruner").map((l) => l.code), [
      "PRUNE_FAILED",
      "PRUNE_RECOVERED",
      "JOBS_PRUNED",
    ]);
    assert.deepEqual(await store.jobList(), []);
  } finally {
    await app.stop();
  }

  const unable = new InMemoryJobStore();
  Object.defineProperty(unable, "jobPrune", { value: undefined });
  const logged: LogRecord[] = [];
  const other = composeApplication({
    modules: [defineModule("scheduling", { declarations: [Remind] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store: unable,
        start: true,
        logger: { log: (r) => logged.push(r) },
      }),
    },
  });
  await other.start();
  await other.stop();
  assert.deepEqual(logged.filter((l) => l.component === "jobs.pruner").map((l) => l.code), [
    "RETENTION_UNSUPPORTED",
  ]);
});

Deno.test("Retention settings out of bounds are refused when the worker is built, naming the field", () => {
  for (
    const [retention, message] of [
      [{ succeeded: 0 }, /retention of succeeded jobs must be a duration/],
      [{ queues: { billing: { dead: -5 } } }, /dead jobs of queue 'billing'/],
      [{ maxCount: 1.5 }, /maxCount must be a whole number/],
      [{ interval: 0 }, /interval must be a duration/],
    ] as const
  ) {
    assert.throws(() => setup(retention), message);
  }
});
