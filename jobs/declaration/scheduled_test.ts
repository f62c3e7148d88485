import assert from "node:assert/strict";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { type BackgroundJobExecution, composeApplication, defineModule } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import {
  type BackgroundJobsApi,
  InMemoryJobStore,
  jobsPlugin,
  Scheduled,
  type ScheduledTick,
} from "../mod.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

function build(store: InMemoryJobStore, clock: TestClock, ticks: string[], reader?: TestReader) {
  @Scheduled({ every: "5m" })
  class SendReminders {
    static readonly jobName = "notifications.send-reminders";
    run(payload: ScheduledTick, execution: BackgroundJobExecution): Promise<void> {
      ticks.push(`${payload.tick} as ${execution.actor.id}`);
      return Promise.resolve();
    }
  }
  const app = composeApplication({
    modules: [defineModule("notifications", { declarations: [SendReminders] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        ...(reader
          ? { telemetry: { meter: new MeterProvider({ readers: [reader] }).getMeter("t") } }
          : {}),
      }),
    },
  });
  return app.backgroundJobs as BackgroundJobsApi;
}

Deno.test("A scheduled job runs once per tick of its interval, as the system actor", async () => {
  const clock = new TestClock("2026-01-01T00:02:00Z");
  const ticks: string[] = [];
  const reader = new TestReader();
  const jobs = build(new InMemoryJobStore(), clock, ticks, reader);
  assert.equal(await jobs.runDue(), 1);
  assert.equal(await jobs.runDue(), 0);
  clock.advance(2 * 60_000);
  assert.equal(await jobs.runDue(), 0, "00:04 is still the 00:00 tick");
  clock.advance(60_000);
  assert.equal(await jobs.runDue(), 1);
  assert.deepEqual(ticks, [
    "2026-01-01T00:00:00.000Z as system",
    "2026-01-01T00:05:00.000Z as system",
  ]);
  const { resourceMetrics } = await reader.collect();
  const scheduled = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === "scheduled_job_runs_total")!;
  assert.equal(scheduled.dataPoints[0]?.value, 2);
});

Deno.test("Two processes scheduling one tick keep one job: one worker runs it", async () => {
  const clock = new TestClock("2026-01-01T00:00:00Z");
  const store = new InMemoryJobStore();
  const ticks: string[] = [];
  const first = build(store, clock, ticks);
  const second = build(store, clock, ticks);
  await Promise.all([first.runDue(), second.runDue()]);
  assert.equal((await store.list()).length, 1);
  assert.deepEqual(ticks, ["2026-01-01T00:00:00.000Z as system"]);
});

Deno.test("@Scheduled refuses an interval under a second", () => {
  assert.throws(() => Scheduled({ every: "500ms" }), /every must be at least 1s, got 500 ms/);
});
