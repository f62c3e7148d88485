import assert from "node:assert/strict";
import {
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineModule,
  Handles,
  JobQueue,
  systemActor,
  TestClock,
  type UnitOfWork,
} from "@kit/kernel";
import {
  Background,
  type BackgroundJobsApi,
  InMemoryJobStore,
  jobsPlugin,
  type NewJob,
  type ReportOutcome,
} from "../mod.ts";
import type { JobReportParams } from "../mod.ts";

/** A store whose writes can be made to fail, as a network partition would. */
class FlakyStore extends InMemoryJobStore {
  failInserts = false;
  failReports = false;
  override jobInsert(params: { job: NewJob; unit?: UnitOfWork }) {
    if (this.failInserts) return Promise.reject(new Error("connection reset"));
    return super.jobInsert(params);
  }
  override jobReport(params: JobReportParams): Promise<ReportOutcome> {
    if (this.failReports) return Promise.reject(new Error("connection reset"));
    return super.jobReport(params);
  }
}

let release: (() => void)[] = [];

@Background({ lease: "3s" })
class Hold {
  static readonly jobName = "faults.hold";
  run(_payload: { n: number }, _execution: BackgroundJobExecution): Promise<void> {
    return new Promise((resolve) => release.push(resolve));
  }
}

class Plan extends Command<{ id: string }> {}

@Handles(Plan)
class PlanHandler {
  constructor(private readonly jobs: JobQueue) {}
  handle(): Promise<{ id: string }> {
    return this.jobs.enqueue(Hold, { n: 1 });
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assert.fail(`timed out waiting for ${what}`);
}

Deno.test("A write after commit that fails goes to onLostJob; the command still answers", async () => {
  const store = new FlakyStore();
  store.failInserts = true;
  const lost: { job: NewJob; error: unknown }[] = [];
  const app = composeApplication({
    modules: [
      defineModule("faults", {
        declarations: [Hold, PlanHandler],
        dependencies: new Map([[PlanHandler, [JobQueue]]]),
      }),
    ],
    clock: new TestClock(),
    plugins: {
      backgroundJobs: jobsPlugin({
        store,
        onLostJob: (job, error) => void lost.push({ job, error }),
      }),
    },
  });
  const { id } = await app.commands.execute(new Plan(systemActor));
  assert.equal(lost.length, 1);
  assert.equal(lost[0]!.job.id, id);
  assert.equal(lost[0]!.job.name, "faults.hold");
  assert.match(String(lost[0]!.error), /connection reset/);
});

Deno.test("A worker whose heartbeats fail stops claiming until they succeed again", async () => {
  release = [];
  const store = new FlakyStore();
  const clock = new TestClock();
  const reported: unknown[] = [];
  const app = composeApplication({
    modules: [defineModule("faults", { declarations: [Hold] })],
    clock,
    errorReporter: { report: (error) => void reported.push(error) },
    plugins: {
      backgroundJobs: jobsPlugin({ store, start: true, concurrency: 5, pollInterval: "1s" }),
    },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  await app.start();
  await jobs.enqueue(Hold, { n: 1 });
  await until(() => release.length === 1, "the first attempt");
  store.failReports = true;
  clock.advance(1_000);
  await until(() => reported.length > 0, "the failed heartbeat to be reported");
  const { id } = await jobs.enqueue(Hold, { n: 2 });
  clock.advance(1_000);
  await until(() => reported.length > 1, "a second failed heartbeat");
  assert.equal((await jobs.find(id))?.status, "waiting", "no claim while heartbeats fail");
  store.failReports = false;
  clock.advance(1_000);
  await until(async () => (await jobs.find(id))?.status === "running", "claiming to resume");
  for (const done of release) done();
  await app.stop();
});
