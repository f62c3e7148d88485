import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { until } from "../../test_support/until.ts";
import {
  type BackgroundJobExecution,
  Command,
  composeApplication,
  defineModule,
  Handles,
  JobQueue,
  systemActor,
} from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import { TestClock } from "@kit/kernel/testing";
import {
  Background,
  type BackgroundJobsApi,
  InMemoryJobStore,
  JobInterruptedError,
  JobLeaseLostError,
  jobsPlugin,
} from "../mod.ts";
import type {
  JobCompleteManyParams,
  JobFailParams,
  JobReportParams,
  NewJob,
  ReportOutcome,
} from "../store.ts";

/** A store whose writes can be made to fail, as a network partition would. */
class FlakyStore extends InMemoryJobStore {
  failInserts = false;
  failReports = false;
  /** Reports that never answer (a connection that hangs), instead of failing. */
  hangReports = false;
  /** Outcomes (completions, failures) fail to be written, as during a restart of the store. */
  failOutcomes = false;
  /** The outcomes' writes tried, failed or not. */
  outcomeWrites = 0;
  /** The jobs whose reports fail, whatever `failReports` says. */
  readonly failReportsOf = new Set<string>();
  /** Fails the write itself: at once outside a unit of work, after its commit inside one. */
  override jobInsertMany(params: { jobs: readonly NewJob[]; unit?: UnitOfWork }) {
    const unit = params.unit;
    if (unit === undefined) {
      if (this.failInserts) return Promise.reject(new Error("connection reset"));
      return super.jobInsertMany(params);
    }
    return super.jobInsertMany({
      jobs: params.jobs,
      unit: {
        ...unit,
        whenCommitted: (write) =>
          unit.whenCommitted(() => {
            if (this.failInserts) throw new Error("connection reset");
            return write();
          }),
      },
    });
  }
  override jobCompleteMany(params: JobCompleteManyParams): Promise<readonly boolean[]> {
    this.outcomeWrites++;
    if (this.failOutcomes) return Promise.reject(new Error("connection reset"));
    return super.jobCompleteMany(params);
  }
  override jobFail(params: JobFailParams): Promise<boolean> {
    this.outcomeWrites++;
    if (this.failOutcomes) return Promise.reject(new Error("connection reset"));
    return super.jobFail(params);
  }
  override jobReport(params: JobReportParams): Promise<ReportOutcome> {
    if (this.hangReports) return new Promise(() => {});
    if (this.failReports || this.failReportsOf.has(params.id)) {
      return Promise.reject(new Error("connection reset"));
    }
    return super.jobReport(params);
  }
}

let release: (() => void)[] = [];
let signals: AbortSignal[] = [];

/** The jobs whose run throws once released. */
const failNext = new Set<string>();

@Background({ lease: "3s" })
class Hold {
  static readonly jobName = "faults.hold";
  run(_payload: { n: number }, execution: BackgroundJobExecution): Promise<void> {
    signals.push(execution.signal);
    return new Promise((resolve, reject) =>
      release.push(() =>
        failNext.has(execution.jobId) ? reject(new Error("the mail server refused")) : resolve()
      )
    );
  }
}

@Background({ lease: "3s" })
class HoldOther {
  static readonly jobName = "others.hold";
  run(_payload: { n: number }, execution: BackgroundJobExecution): Promise<void> {
    signals.push(execution.signal);
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

/** Moves the clock by `ms` in steps, letting queued callbacks run after each. */
async function advance(clock: TestClock, ms: number, step = 500): Promise<void> {
  for (let moved = 0; moved < ms; moved += step) {
    clock.advance(Math.min(step, ms - moved));
    await turns(5);
  }
}

function faultyWorker(store: FlakyStore) {
  release = [];
  signals = [];
  const clock = new TestClock();
  const reported: unknown[] = [];
  /** The stage of each report about an outcome's write ("record"). */
  const recordReports: unknown[] = [];
  const outcomes: string[] = [];
  const app = composeApplication({
    modules: [
      defineModule("faults", { declarations: [Hold] }),
      defineModule("others", { declarations: [HoldOther] }),
    ],
    clock,
    errorReporter: {
      report: (error, report) => {
        reported.push(error);
        if (report.details?.stage === "record") recordReports.push(error);
      },
    },
    plugins: { backgroundJobs: jobsPlugin({ store, start: true, concurrency: 2 }) },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  jobs.worker.onAttempt((_job, result) => void outcomes.push(result.outcome));
  return { app, clock, jobs, reported, recordReports, outcomes };
}

for (const fault of ["fail", "hang"] as const) {
  Deno.test(`A run whose heartbeats ${fault} until its lease ends is aborted with JobLeaseLostError, and the job is claimed again`, async () => {
    const store = new FlakyStore();
    const { app, clock, jobs, reported, outcomes } = faultyWorker(store);
    await app.start();
    const { id } = await jobs.enqueue(Hold, { n: 1 });
    await until(() => signals.length === 1, "the attempt to start");
    const started = clock.now().getTime();
    if (fault === "fail") store.failReports = true;
    else store.hangReports = true;
    await advance(clock, 2_999);
    assert.equal(signals[0]!.aborted, false, "the lease holds until its end");
    clock.advance(1);
    await until(() => signals[0]!.aborted, "the lost lease to abort the run");
    const reason = signals[0]!.reason;
    assert.ok(reason instanceof JobLeaseLostError);
    assert.ok(reason instanceof JobInterruptedError, "interrupted: the attempt records nothing");
    assert.equal(reason.jobId, id);
    assert.equal(reason.leaseEndedAt.getTime(), started + 3_000);
    assert.ok(reported.some((error) => error === reason), "the lost lease is reported");
    await until(() => outcomes.length === 1, "the attempt to end");
    assert.deepEqual(outcomes, ["interrupted"]);
    store.failReports = false;
    store.hangReports = false;
    // The old claim's lease has ended: the job is claimed again (here by this worker, which has
    // a free slot again), one attempt more, and runs under the new claim.
    await until(() => signals.length === 2, "the job to be claimed again");
    assert.equal(signals[1]!.aborted, false);
    const job = await jobs.find(id);
    assert.equal(job?.status, "running");
    assert.equal(job?.attempts, 2);
    release[1]!();
    await until(async () => (await jobs.find(id))?.status === "succeeded", "the second run");
    await app.stop();
  });
}

Deno.test("A run whose heartbeat reaches the store again before its lease ends goes on", async () => {
  const store = new FlakyStore();
  const { app, clock, jobs } = faultyWorker(store);
  await app.start();
  const { id } = await jobs.enqueue(Hold, { n: 1 });
  await until(() => signals.length === 1, "the attempt to start");
  store.failReports = true;
  await advance(clock, 1_500); // the heartbeat at 1 s fails
  store.failReports = false;
  await advance(clock, 4_500); // the one at 2 s extends the lease to 5 s, and so on
  assert.equal(signals[0]!.aborted, false);
  release[0]!();
  await until(async () => (await jobs.find(id))?.status === "succeeded", "the run to succeed");
  await app.stop();
});

Deno.test("Heartbeats are per queue: one queue's failing heartbeats do not stop claiming on another", async () => {
  const store = new FlakyStore();
  const { app, clock, jobs, reported } = faultyWorker(store);
  await app.start();
  const failing = await jobs.enqueue(Hold, { n: 1 });
  await until(() => signals.length === 1, "the first attempt");
  store.failReportsOf.add(failing.id);
  await advance(clock, 1_000);
  assert.ok(reported.length > 0, "the failed heartbeat is reported");
  // The failing queue claims no more while its heartbeats fail...
  const waiting = await jobs.enqueue(Hold, { n: 2 });
  // ...the other one goes on.
  const other = await jobs.enqueue(HoldOther, { n: 3 });
  await until(async () => (await jobs.find(other.id))?.status === "running", "the other queue");
  await advance(clock, 1_000);
  assert.equal((await jobs.find(waiting.id))?.status, "waiting");
  assert.equal(signals.length, 2);
  for (const done of release) done();
  await app.stop();
});

for (const ending of ["succeeds", "fails"] as const) {
  Deno.test(`A run that ${ending} while the store is out of reach has its outcome written once the store is back, within its lease`, async () => {
    const store = new FlakyStore();
    const { app, clock, jobs, recordReports, outcomes } = faultyWorker(store);
    await app.start();
    const { id } = await jobs.enqueue(Hold, { n: 1 });
    await until(() => signals.length === 1, "the attempt to start");
    store.failOutcomes = true;
    store.failReports = true;
    if (ending === "fails") failNext.add(id);
    release[0]!();
    await until(() => store.outcomeWrites === 1, "the first write of the outcome");
    await advance(clock, 1_500, 100); // tried again at 100, 300, 700 and 1,500 ms
    assert.equal(store.outcomeWrites, 5, "written again, waits doubling");
    assert.deepEqual(outcomes, [], "the attempt is not over while its outcome is unwritten");
    assert.equal(recordReports.length, 1, "one outage, one report");
    store.failOutcomes = false;
    store.failReports = false;
    await advance(clock, 1_600, 100);
    await until(() => outcomes.length === 1, "the attempt to end");
    assert.deepEqual(outcomes, [ending === "succeeds" ? "succeeded" : "retried"]);
    const job = await jobs.find(id);
    if (ending === "succeeds") {
      assert.equal(job?.status, "succeeded");
      assert.equal(job?.attempts, 1, "recorded, not run again after its lease");
    } else {
      // Its backoff (1 s from the failure) is over: claimed again at once, not after the lease.
      assert.equal(job?.lastErrorCode, "UNEXPECTED");
      assert.equal(job?.attempts, 2);
      assert.equal(signals.length, 2);
      failNext.delete(id);
      release[1]!();
      await until(async () => (await jobs.find(id))?.status === "succeeded", "the second run");
    }
    await app.stop();
  });
}

Deno.test("An outcome still unwritten when the lease ends is given up: the error is reported and the job is claimed again", async () => {
  const store = new FlakyStore();
  const { app, clock, jobs, recordReports, outcomes } = faultyWorker(store);
  await app.start();
  const { id } = await jobs.enqueue(Hold, { n: 1 });
  await until(() => signals.length === 1, "the attempt to start");
  store.failOutcomes = true;
  store.failReports = true;
  release[0]!();
  await until(() => store.outcomeWrites === 1, "the first write of the outcome");
  await advance(clock, 3_000, 100);
  await until(() => outcomes.length === 1, "the attempt to give up");
  assert.deepEqual(outcomes, ["interrupted"]);
  assert.equal(recordReports.length, 2, "the first failure, then the giving up");
  assert.match(String(recordReports[1]), /connection reset/);
  store.failOutcomes = false;
  store.failReports = false;
  await until(() => signals.length === 2, "the job to be claimed again once its lease ended");
  assert.equal((await jobs.find(id))?.attempts, 2);
  release[1]!();
  await until(async () => (await jobs.find(id))?.status === "succeeded", "the second run");
  await app.stop();
});
