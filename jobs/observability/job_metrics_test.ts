import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { type DataPoint, MeterProvider, type MetricReader } from "@opentelemetry/sdk-metrics";
import {
  type BackgroundJobExecution,
  composeApplication,
  ConceptError,
  defineModule,
} from "@kit/kernel";
import type { LogRecord } from "@kit/kernel/logging";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import type { JobStore } from "../store/job_store.ts";
import { JobCountsGauge } from "./job_counts_gauge.ts";
import { pgTest } from "../../test_support/services.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

/** The points of the metric of meter `kit` named `name`: attributes and value, sorted. */
async function points(reader: MetricReader, name: string) {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics
    .filter((scope) => scope.scope.name === "kit")
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints as DataPoint<number>[])
    .map((point): Record<string, unknown> => ({ ...point.attributes, value: point.value }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

@Background({ maxAttempts: 2 })
class Charge {
  static readonly jobName = "billing.charge";
  run(payload: { fail: boolean }, _execution: BackgroundJobExecution): Promise<void> {
    if (payload.fail) throw ConceptError.refusal("CARD_DECLINED", "declined");
    return Promise.resolve();
  }
}

@Background()
class Remind {
  static readonly jobName = "billing.remind";
  run(_payload: Record<string, never>, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

/** An application of the billing jobs on `store`, measured by a fresh SDK. */
function billing(store: JobStore, options: { jobCounts?: false } = {}) {
  const clock = new TestClock();
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const app = composeApplication({
    modules: [defineModule("billing", { declarations: [Charge, Remind] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        telemetry: { meterProvider, ...(options.jobCounts === false ? { jobCounts: false } : {}) },
      }),
    },
  });
  return { app, jobs: app.backgroundJobs as BackgroundJobsApi, clock, reader };
}

Deno.test("kit.jobs.attempts.failed counts each failed attempt by queue and job, retried or dead", async () => {
  const { jobs, clock, reader } = billing(new InMemoryJobStore(), { jobCounts: false });
  await jobs.enqueue(Charge, { fail: true });
  await jobs.enqueue(Charge, { fail: false });
  await jobs.enqueue(Remind, {});
  await assert.rejects(() => jobs.runDue(), /declined/);
  assert.deepEqual(await points(reader, "kit.jobs.attempts.failed"), [
    { queue: "billing", job: "billing.charge", value: 1 },
  ]);
  clock.advance(3_600_000);
  await assert.rejects(() => jobs.runDue(), /declined/);
  const [dead] = await jobs.store.jobList({ status: "dead" });
  assert.equal(dead?.attempts, 2);
  assert.deepEqual(await points(reader, "kit.jobs.attempts.failed"), [
    { queue: "billing", job: "billing.charge", value: 2 },
  ]);
});

/** A store that counts its `jobCounts` reads. */
function countingReads<S extends JobStore>(store: S): S & { reads: number } {
  const counted = store as S & { reads: number };
  counted.reads = 0;
  const jobCounts = store.jobCounts.bind(store);
  counted.jobCounts = (params) => {
    counted.reads++;
    return jobCounts(params);
  };
  return counted;
}

/** The case every store passes: counts by queue and state, one read per interval, none after stop. */
async function jobCountsCase(store: JobStore & { reads: number }) {
  const { app, jobs, clock, reader } = billing(store);
  assert.deepEqual(await points(reader, "kit.jobs.count"), [], "nothing before the app starts");
  await app.start();
  try {
    await jobs.enqueue(Charge, { fail: true });
    await jobs.enqueue(Charge, { fail: false });
    await jobs.enqueue(Remind, {});
    await assert.rejects(() => jobs.runDue(), /declined/);
    const expected = [
      { queue: "billing", state: "cancelled", value: 0 },
      { queue: "billing", state: "dead", value: 0 },
      { queue: "billing", state: "running", value: 0 },
      { queue: "billing", state: "succeeded", value: 2 },
      { queue: "billing", state: "waiting", value: 1 },
    ];
    assert.deepEqual(await points(reader, "kit.jobs.count"), expected);
    assert.equal(store.reads, 1);

    await jobs.enqueue(Remind, {});
    clock.advance(9_999);
    assert.deepEqual(await points(reader, "kit.jobs.count"), expected, "the counts of 9.999 s ago");
    assert.equal(store.reads, 1);
    clock.advance(1);
    const again = await points(reader, "kit.jobs.count");
    assert.deepEqual(again.find((p) => p.state === "waiting"), {
      queue: "billing",
      state: "waiting",
      value: 2,
    });
    assert.equal(store.reads, 2);
  } finally {
    await app.stop();
  }
  clock.advance(10_000);
  await reader.collect();
  assert.equal(store.reads, 2, "no read once the app stopped");
}

Deno.test("kit.jobs.count: the in-memory store's jobs by queue and state, read once per 10 s", async () => {
  await jobCountsCase(countingReads(new InMemoryJobStore()));
});

pgTest(
  "kit.jobs.count: the PostgreSQL store's jobs by queue and state, read once per 10 s",
  async ({ sql }) => {
    await migrateJobs(sql);
    await jobCountsCase(countingReads(new PostgresJobStore(sql, { listen: false })));
  },
);

Deno.test("kit.jobs.count observes nothing when the store does not answer in time, and logs it once", async () => {
  const store = new InMemoryJobStore();
  store.jobCounts = () => new Promise(() => {});
  const logged: LogRecord[] = [];
  const clock = new TestClock();
  const reader = new TestReader();
  const gauge = new JobCountsGauge({
    store,
    clock,
    meterProvider: new MeterProvider({ readers: [reader] }),
    logger: { log: (record) => void logged.push(record) },
  });
  gauge.start();
  const collected = points(reader, "kit.jobs.count");
  await turns();
  clock.advance(5_000);
  assert.deepEqual(await collected, []);
  assert.deepEqual(logged.map((r) => [r.level, r.component, r.code]), [
    ["warn", "jobs.metrics", "JOB_COUNTS_UNREAD"],
  ]);
  gauge.stop();
});

Deno.test("kit.jobs.count answers 0 for a queue whose jobs were all purged", async () => {
  const { app, jobs, clock, reader } = billing(new InMemoryJobStore());
  await app.start();
  try {
    await jobs.enqueue(Remind, {});
    await jobs.runDue();
    const succeeded = await points(reader, "kit.jobs.count");
    assert.deepEqual(succeeded.find((p) => p.state === "succeeded")?.value, 1);
    await jobs.store.jobPurgeFinished({ before: new Date(clock.now().getTime() + 1) });
    clock.advance(10_000);
    const purged = await points(reader, "kit.jobs.count");
    assert.equal(purged.length, 5);
    assert.ok(purged.every((p) => p.queue === "billing" && p.value === 0));
  } finally {
    await app.stop();
  }
});
