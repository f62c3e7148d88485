/** Background jobs declared with `experimentalDecorators`: declared, enqueued and run alike. */
import assert from "node:assert/strict";
import {
  type BackgroundJobExecution,
  composeApplication,
  defineModule,
  runInScope,
  userActor,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "@kit/jobs";

const ran: { payload: unknown; actor: string; attempt: number }[] = [];

@Background({ lease: "1m", maxAttempts: 2 })
class SendReminder {
  static readonly jobName = "scheduling.send-reminder";
  run(payload: { appointmentId: string }, execution: BackgroundJobExecution): Promise<void> {
    ran.push({ payload, actor: execution.actor.id, attempt: execution.attempt });
    return Promise.resolve();
  }
}

Deno.test("experimentalDecorators: a @Background job reads its static jobName and runs as its enqueuer", async () => {
  const app = composeApplication({
    modules: [defineModule("scheduling", { declarations: [SendReminder] })],
    clock: new TestClock(),
    plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }) },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  await runInScope(
    { execution: { origin: "test", actor: userActor("nurse"), correlationId: "c" } },
    () => jobs.enqueue(SendReminder, { appointmentId: "a1" }),
  );
  assert.equal(await jobs.runDue(), 1);
  assert.deepEqual(ran, [{ payload: { appointmentId: "a1" }, actor: "nurse", attempt: 1 }]);
});
