import assert from "node:assert/strict";
import { composeApplication } from "@kit/kernel";
import { InMemoryProcessStore, ProcessStore } from "@kit/kernel/process";
import { jobsPlugin } from "../jobs_plugin.ts";
import { InMemoryJobStore } from "../store/in_memory_job_store.ts";
import { confirmationModule, Effects } from "../testing/_confirmation_process.ts";

Deno.test("jobsPlugin() refuses a process manager without a ProcessStore, naming it", () => {
  assert.throws(
    () =>
      composeApplication({
        modules: [confirmationModule()],
        providers: [{ provide: Effects, provider: { useValue: { done: [] } } }],
        plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }) },
      }),
    /Process manager 'appointments.confirmation' needs a ProcessStore/,
  );
});

Deno.test("jobsPlugin() runs each process manager's deadline job on its context's queue", () => {
  const app = composeApplication({
    modules: [confirmationModule()],
    providers: [
      { provide: Effects, provider: { useValue: { done: [] } } },
      { provide: ProcessStore, provider: { useValue: new InMemoryProcessStore() } },
    ],
    plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore() }) },
  });
  assert.deepEqual(app.backgroundJobs.worker.queues, ["appointments"]);
});
