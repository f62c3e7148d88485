import assert from "node:assert/strict";
import { defineModule, systemActor } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { InMemoryJobStore, Scheduled, type ScheduledTick } from "../mod.ts";
import { lastTickPages, readSchedules } from "./schedules.ts";
import { ReadScheduledJobs } from "../dashboard.ts";
import { dashboardApp } from "../testdata/dashboard_app.ts";

const operator = "olga;operator;t1";
const reader = "rita;reader;t1";

function scheduledApp() {
  @Scheduled({ every: "5m" })
  class SendReminders {
    static readonly jobName = "notifications.send-reminders";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  @Scheduled({ every: 86_400_000 })
  class CloseDay {
    static readonly jobName = "billing.close-day";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  const clock = new TestClock("2026-01-01T00:02:00Z");
  const app = dashboardApp({
    clock,
    modules: [
      defineModule("notifications", { declarations: [SendReminders] }),
      defineModule("billing", { declarations: [CloseDay] }),
    ],
  });
  return { ...app, clock };
}

Deno.test("an operator lists the scheduled jobs: interval as declared, queue, next tick on the clock", async () => {
  const { call } = scheduledApp();
  const listed = await call("GET", "/ops/jobs/schedules", operator);
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.scheduledJobs, [
    {
      name: "billing.close-day",
      queue: "billing",
      every: 86_400_000,
      everyMs: 86_400_000,
      nextTick: "2026-01-02T00:00:00.000Z",
    },
    {
      name: "notifications.send-reminders",
      queue: "notifications",
      every: "5m",
      everyMs: 300_000,
      nextTick: "2026-01-01T00:05:00.000Z",
    },
  ]);
  assert.equal((await call("GET", "/ops/jobs/schedules", reader)).status, 200);
  assert.equal((await call("GET", "/ops/jobs/schedules", "pat;patient;t1")).status, 403);
  assert.equal((await call("GET", "/ops/jobs/schedules", undefined)).status, 401);
});

Deno.test("the last tick is the newest job the scheduler enqueued, seen by work that reaches every tenant", async () => {
  const { application, call, clock } = scheduledApp();
  await application.backgroundJobs.runDue();
  clock.advance(5 * 60_000);
  await application.backgroundJobs.runDue();
  // A run asked by an operator is no tick: the last tick stays the scheduler's.
  assert.equal(
    (await call("POST", "/ops/jobs/schedules/notifications.send-reminders/run", operator)).status,
    200,
  );
  const views = await application.queries.execute(new ReadScheduledJobs(systemActor));
  const reminders = views.find((v) => v.name === "notifications.send-reminders")!;
  assert.equal(reminders.lastTick?.at.toISOString(), "2026-01-01T00:05:00.000Z");
  assert.equal(reminders.lastTick?.status, "succeeded");
  const tickJob = await application.backgroundJobs.store.jobView({
    id: reminders.lastTick!.jobId,
    reach: {},
  });
  assert.equal(tickJob?.idempotencyKey, "tick:2026-01-01T00:05:00.000Z");
  assert.equal(reminders.nextTick.toISOString(), "2026-01-01T00:10:00.000Z");
  const closeDay = views.find((v) => v.name === "billing.close-day")!;
  assert.equal(closeDay.lastTick?.at.toISOString(), "2026-01-01T00:00:00.000Z");
  // Ticks belong to no tenant: a tenant's operator sees the schedule, not the ticks' jobs.
  const listed = await call("GET", "/ops/jobs/schedules", operator);
  for (const view of listed.body.scheduledJobs as Record<string, unknown>[]) {
    assert.equal(view.lastTick, undefined);
  }
});

Deno.test("an operator runs a scheduled job now: one job, as the operator's work, the schedule unchanged", async () => {
  const { application, call, store } = scheduledApp();
  const run = await call("POST", "/ops/jobs/schedules/notifications.send-reminders/run", operator);
  assert.equal(run.status, 200);
  const id = run.body.id as string;
  const job = (await store.jobList()).find((j) => j.id === id);
  assert.equal(job?.name, "notifications.send-reminders");
  assert.equal(job?.status, "waiting");
  assert.deepEqual(job?.payload, { tick: "2026-01-01T00:02:00.000Z" });
  assert.equal(job?.idempotencyKey, undefined);
  assert.equal(job?.actor.id, "olga");
  assert.equal(job?.tenantId, "t1");
  // A second run is another job; the scheduler still enqueues its own tick.
  const again = await call(
    "POST",
    "/ops/jobs/schedules/notifications.send-reminders/run",
    operator,
  );
  assert.notEqual(again.body.id, id);
  await application.backgroundJobs.runDue();
  const reminders = (await store.jobList()).filter((j) =>
    j.name === "notifications.send-reminders"
  );
  assert.deepEqual(reminders.map((j) => j.idempotencyKey).sort(), [
    "tick:2026-01-01T00:00:00.000Z",
    undefined,
    undefined,
  ]);
});

Deno.test("running an unknown scheduled job is a 404 problem; a reader is refused (403)", async () => {
  const { call, store } = scheduledApp();
  const unknown = await call("POST", "/ops/jobs/schedules/billing.nothing/run", operator);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.code, "SCHEDULED_JOB_NOT_FOUND");
  const refused = await call("POST", "/ops/jobs/schedules/billing.close-day/run", reader);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, "FORBIDDEN");
  assert.deepEqual(await store.jobList(), []);
});

Deno.test("the last tick is looked for in four pages of 50 of the job's newest jobs, past other runs", async () => {
  const store = new InMemoryJobStore();
  const entry = {
    job: class {} as never,
    name: "notifications.send-reminders",
    queue: "notifications",
    every: "5m" as const,
    everyMs: 300_000,
  };
  const now = new Date("2026-01-01T00:02:00Z");
  const insert = (i: number, key?: string) =>
    store.jobInsert({
      job: {
        id: `0193${String(i).padStart(4, "0")}-0000-7000-8000-000000000000`,
        name: entry.name,
        queue: entry.queue,
        payload: { tick: now.toISOString() },
        actor: systemActor,
        correlationId: "c",
        maxAttempts: 1,
        runAt: now,
        createdAt: new Date(now.getTime() + i),
        ...(key === undefined ? {} : { idempotencyKey: key }),
      },
    });
  await insert(0, "tick:2026-01-01T00:00:00.000Z");
  // Another job whose name the search's prefix matches is no tick of this one.
  await store.jobInsert({
    job: {
      id: "01940000-0000-7000-8000-000000000000",
      name: `${entry.name}-weekly`,
      queue: entry.queue,
      payload: {},
      actor: systemActor,
      correlationId: "c",
      idempotencyKey: "tick:2026-01-01T00:01:00.000Z",
      maxAttempts: 1,
      runAt: now,
      createdAt: new Date(now.getTime() + 1_000),
    },
  });
  for (let i = 1; i < lastTickPages * 50 - 1; i++) await insert(i);
  const [found] = await readSchedules(store, [entry], now, {});
  assert.equal(found?.lastTick?.at.toISOString(), "2026-01-01T00:00:00.000Z");
  await insert(lastTickPages * 50 - 1);
  await insert(lastTickPages * 50);
  const [missed] = await readSchedules(store, [entry], now, {});
  assert.equal(missed?.lastTick, undefined, "older than the pages read");
  assert.equal(missed?.nextTick.toISOString(), "2026-01-01T00:05:00.000Z");
});
