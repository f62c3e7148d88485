import assert from "node:assert/strict";
import { defineModule, isRefusal, userActor } from "@kit/kernel";
import { Scheduled, type ScheduledTick } from "./mod.ts";
import {
  CancelJob,
  jobsDashboardErrors,
  PurgeFinishedJobs,
  ReadJob,
  ReadJobCounts,
  ReadJobPage,
  ReviveDeadJobs,
  ReviveJob,
  RunScheduledJob,
} from "./dashboard.ts";
import { dashboardApp, job, t0 } from "./testdata/dashboard_app.ts";

const operator = userActor("olga", { roles: ["operator"], tenants: ["t1"] });
const reader = userActor("rita", { roles: ["reader"], tenants: ["t1"] });
const patient = userActor("pat", { roles: ["patient"], tenants: ["t1"] });

Deno.test("the dashboard's queries answer through the application's bus, to jobs.read only", async () => {
  const { application, store } = dashboardApp();
  const waiting = job();
  await store.jobInsert({ job: waiting });
  const counts = await application.queries.execute(new ReadJobCounts(reader));
  assert.deepEqual(counts.map(({ queue, waiting }) => ({ queue, waiting })), [
    { queue: "scheduling", waiting: 1 },
  ]);
  const page = await application.queries.execute(new ReadJobPage(reader, { limit: 10 }));
  assert.deepEqual(page.jobs.map((j) => j.id), [waiting.id]);
  assert.equal((await application.queries.execute(new ReadJob(reader, waiting.id))).id, waiting.id);
  await assert.rejects(
    () => application.queries.execute(new ReadJobCounts(patient)),
    (error: unknown) => isRefusal(error, "FORBIDDEN"),
  );
});

Deno.test("the dashboard's commands run through the application's bus, to jobs.operate only, refusing with jobsDashboardErrors", async () => {
  const { application, store, dead } = dashboardApp();
  const waiting = job();
  await store.jobInsert({ job: waiting });
  await assert.rejects(
    () => application.commands.execute(new CancelJob(reader, waiting.id)),
    (error: unknown) => isRefusal(error, "FORBIDDEN"),
  );
  await application.commands.execute(new CancelJob(operator, waiting.id));
  assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "cancelled");
  await assert.rejects(
    () => application.commands.execute(new CancelJob(operator, waiting.id)),
    (error: unknown) => jobsDashboardErrors.JOB_NOT_CANCELLABLE.is(error),
  );
  await assert.rejects(
    () => application.commands.execute(new ReviveJob(operator, waiting.id)),
    (error: unknown) => jobsDashboardErrors.JOB_NOT_DEAD.is(error),
  );
  const failed = job();
  await dead(failed, "CALENDAR_GONE");
  assert.deepEqual(
    await application.commands.execute(new ReviveDeadJobs(operator, "scheduling")),
    { revived: 1, more: false },
  );
  await assert.rejects(
    () => application.commands.execute(new PurgeFinishedJobs(reader, t0)),
    (error: unknown) => isRefusal(error, "FORBIDDEN"),
  );
});

Deno.test("RunScheduledJob enqueues one run of a declared scheduled job, to jobs.operate only", async () => {
  @Scheduled({ every: "5m" })
  class SendReminders {
    static readonly jobName = "notifications.send-reminders";
    run(_payload: ScheduledTick): Promise<void> {
      return Promise.resolve();
    }
  }
  const { application, store } = dashboardApp({
    modules: [defineModule("notifications", { declarations: [SendReminders] })],
  });
  const id = await application.commands.execute(
    new RunScheduledJob(operator, "notifications.send-reminders"),
  );
  const run = await store.jobFind({ id, reach: {} });
  assert.deepEqual([run?.name, run?.status], ["notifications.send-reminders", "waiting"]);
  await assert.rejects(
    () => application.commands.execute(new RunScheduledJob(operator, "notifications.unknown")),
    (error: unknown) => jobsDashboardErrors.SCHEDULED_JOB_NOT_FOUND.is(error),
  );
  await assert.rejects(
    () => application.commands.execute(new RunScheduledJob(reader, "notifications.send-reminders")),
    (error: unknown) => isRefusal(error, "FORBIDDEN"),
  );
});
