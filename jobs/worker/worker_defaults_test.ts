import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { until } from "../../test_support/until.ts";
import {
  type BackgroundJobExecution,
  composeApplication,
  defineModule,
  systemActor,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import {
  Background,
  type BackgroundJobsApi,
  InMemoryJobStore,
  jobsPlugin,
  type JobsPluginOptions,
} from "../mod.ts";
import { jobSettingsOf } from "../declaration/background.ts";
import type { ClaimedJob, JobClaimParams, JobReportParams, ReportOutcome } from "../store.ts";

/** A store that records claims and reports, and whose reports can be made to fail. */
class WatchedStore extends InMemoryJobStore {
  readonly claims: { at: number; limit: number; defaultLeaseMs: number }[] = [];
  readonly reports: number[] = [];
  failReports = false;
  override jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    this.claims.push({
      at: params.now.getTime(),
      limit: params.limit,
      defaultLeaseMs: params.defaultLeaseMs,
    });
    return super.jobClaim(params);
  }
  override jobReport(params: JobReportParams): Promise<ReportOutcome> {
    this.reports.push(params.now.getTime());
    if (this.failReports) return Promise.reject(new Error("connection reset"));
    return super.jobReport(params);
  }
}

/** What the jobs below saw: their runs, by queue, and the promises that end them. */
let runs: { queue: string; n: number; attempt: number; worker: string }[] = [];
let release: (() => void)[] = [];
let failures = 0;

function holding(queue: string, worker: string) {
  return (payload: { n: number }, execution: BackgroundJobExecution): Promise<void> => {
    runs.push({ queue, n: payload.n, attempt: execution.attempt, worker });
    return new Promise((resolve) => release.push(resolve));
  };
}

/** Jobs declared without options: every default applies. */
function jobClasses(worker: string) {
  @Background()
  class Hold {
    static readonly jobName = "alpha.hold";
    run = holding("alpha", worker);
  }
  @Background()
  class HoldBeta {
    static readonly jobName = "beta.hold";
    run = holding("beta", worker);
  }
  @Background()
  class HoldGamma {
    static readonly jobName = "gamma.hold";
    run = holding("gamma", worker);
  }
  @Background()
  class AlwaysFails {
    static readonly jobName = "alpha.always-fails";
    run(): Promise<void> {
      failures++;
      return Promise.reject(new Error("still broken"));
    }
  }
  return { Hold, HoldBeta, HoldGamma, AlwaysFails };
}

function worker(
  options: {
    store?: InMemoryJobStore;
    clock?: TestClock;
    name?: string;
    settings?: Omit<JobsPluginOptions, "store">;
  } = {},
) {
  const store = options.store ?? new WatchedStore();
  const clock = options.clock ?? new TestClock("2026-06-01T08:00:00Z");
  const classes = jobClasses(options.name ?? "worker");
  const app = composeApplication({
    modules: [
      defineModule("alpha", { declarations: [classes.Hold, classes.AlwaysFails] }),
      defineModule("beta", { declarations: [classes.HoldBeta] }),
      defineModule("gamma", { declarations: [classes.HoldGamma] }),
    ],
    clock,
    errorReporter: { report: () => {} },
    plugins: { backgroundJobs: jobsPlugin({ store, start: true, ...options.settings }) },
  });
  return { app, store, clock, jobs: app.backgroundJobs as BackgroundJobsApi, ...classes };
}

function reset(): void {
  runs = [];
  release = [];
  failures = 0;
}

/** Lets queued callbacks run (no time passes). */
async function settle(): Promise<void> {
  await turns(10);
}

/** Moves the clock by `ms` in steps, letting queued callbacks run after each. */
async function advance(clock: TestClock, ms: number, step = 1_000): Promise<void> {
  for (let moved = 0; moved < ms; moved += step) {
    clock.advance(Math.min(step, ms - moved));
    await settle();
  }
}

Deno.test("Worker by default claims only its free slots: two workers of concurrency 1 on one queue with two jobs each take one", async () => {
  reset();
  const store = new InMemoryJobStore();
  const clock = new TestClock("2026-06-01T08:00:00Z");
  const first = worker({ store, clock, name: "first", settings: { concurrency: 1 } });
  const second = worker({ store, clock, name: "second", settings: { concurrency: 1 } });
  const a = await first.jobs.enqueue(first.Hold, { n: 1 }, { delay: 1 });
  const b = await first.jobs.enqueue(first.Hold, { n: 2 }, { delay: 2 });
  clock.advance(2);
  await first.app.start();
  await until(() => runs.length === 1, "the first worker's run");
  await settle();
  // The job not started is not claimed ahead: waiting, no attempt counted.
  assert.deepEqual(
    {
      status: (await first.jobs.find(b.id))?.status,
      attempts: (await first.jobs.find(b.id))?.attempts,
    },
    { status: "waiting", attempts: 0 },
  );
  await second.app.start();
  await until(() => runs.length === 2, "the second worker's run");
  assert.deepEqual(runs.map((r) => [r.worker, r.n]), [["first", 1], ["second", 2]]);
  assert.equal((await first.jobs.find(a.id))?.status, "running");
  for (const done of release) done();
  await first.app.stop();
  await second.app.stop();
});

Deno.test("@Background defaults: 5 attempts, retried after 1 s doubling, capped at 5 min", async () => {
  reset();
  const { jobs, clock, AlwaysFails, app } = worker({ settings: {} });
  const settings = jobSettingsOf(AlwaysFails);
  assert.equal(settings.maxAttempts, 5);
  assert.deepEqual([9, 10, 30].map(settings.backoff), [256_000, 300_000, 300_000]);
  const { id } = await jobs.enqueue(AlwaysFails, {});
  await assert.rejects(() => jobs.runDue(), /still broken/);
  for (const wait of [1_000, 2_000, 4_000, 8_000]) {
    clock.advance(wait - 1);
    assert.equal(await jobs.runDue(), 0, `not due ${wait - 1} ms after the failure`);
    clock.advance(1);
    await assert.rejects(() => jobs.runDue(), /still broken/);
  }
  const job = await jobs.find(id);
  assert.equal(job?.status, "dead");
  assert.equal(job?.attempts, 5);
  assert.equal(failures, 5);
  clock.advance(3_600_000);
  assert.equal(await jobs.runDue(), 0, "a dead job is not retried");
  await app.stop();
});

Deno.test("Worker defaults: an idle queue is polled every second", async () => {
  reset();
  const { app, store, clock } = worker();
  const watched = store as WatchedStore;
  await app.start();
  await settle();
  const alphaClaims = () => watched.claims.length;
  const before = alphaClaims();
  assert.ok(before >= 1, "each queue claims once at start");
  // A job written by another process (no wake here): found at the next poll.
  await store.jobInsert({
    job: {
      id: "01900000-0000-7000-8000-00000000abcd",
      name: "alpha.hold",
      queue: "alpha",
      payload: { n: 1 },
      actor: systemActor,
      correlationId: "c",
      maxAttempts: 5,
      runAt: clock.now(),
      createdAt: clock.now(),
    },
  });
  clock.advance(999);
  await settle();
  assert.equal(alphaClaims(), before, "no claim before the interval");
  assert.equal(runs.length, 0);
  clock.advance(1);
  await until(() => runs.length === 1, "the poll to find the job");
  for (const done of release) done();
  await app.stop();
});

Deno.test("Worker defaults: concurrency 10 per queue, a claim leased 30 s, a heartbeat every 10 s (a third of the lease)", async () => {
  reset();
  const { app, store, clock, jobs, Hold } = worker();
  const watched = store as WatchedStore;
  await app.start();
  const ids: string[] = [];
  for (let n = 0; n < 12; n++) ids.push((await jobs.enqueue(Hold, { n })).id);
  await until(() => runs.length === 10, "ten runs");
  await settle();
  assert.equal(runs.length, 10, "at most ten at once");
  assert.ok(watched.claims.every((claim) => claim.defaultLeaseMs === 30_000));
  const started = clock.now().getTime();
  await advance(clock, 9_999, 3_333);
  assert.deepEqual(watched.reports, [], "no heartbeat before a third of the lease");
  clock.advance(1);
  await until(() => watched.reports.length === 10, "one heartbeat per run");
  assert.ok(watched.reports.every((at) => at === started + 10_000));

  // With the heartbeats failing from now on, a claim holds the job 30 s from its last report:
  // another worker takes it then, not before.
  watched.failReports = true;
  await advance(clock, 29_999 - 10_000, 1_000);
  const claim = (ms: number) =>
    store.jobClaim({
      queue: "alpha",
      limit: 20,
      now: new Date(started + ms),
      leases: {},
      defaultLeaseMs: 60_000,
    });
  const started10 = new Set(runs.map((run) => ids[run.n]!));
  const early = await claim(39_999);
  assert.deepEqual(
    early.map((job) => job.id).sort(),
    ids.filter((id) => !started10.has(id)).sort(),
    "only the two never claimed",
  );
  const taken = await claim(40_000);
  assert.deepEqual(taken.map((job) => job.id).sort(), [...started10].sort());
  assert.ok(taken.every((job) => job.attempt === 2));
  for (const done of release) done();
  await app.stop();
});

Deno.test("Worker concurrency { <context>: n } runs at most n jobs of each queue at once", async () => {
  reset();
  const { app, jobs, Hold, HoldBeta, HoldGamma } = worker({
    settings: { concurrency: { alpha: 1, beta: 3 } },
  });
  await app.start();
  for (let n = 0; n < 4; n++) {
    await jobs.enqueue(Hold, { n });
    await jobs.enqueue(HoldBeta, { n });
  }
  for (let n = 0; n < 12; n++) await jobs.enqueue(HoldGamma, { n });
  const running = (queue: string) => runs.filter((r) => r.queue === queue).length;
  await until(() => running("gamma") === 10, "gamma to fill its slots");
  await until(() => running("beta") === 3, "beta to fill its slots");
  await settle();
  assert.deepEqual([running("alpha"), running("beta"), running("gamma")], [1, 3, 10]);
  // A slot freed in alpha starts one more alpha job, and no more.
  const alphaRelease = release[runs.findIndex((r) => r.queue === "alpha")]!;
  alphaRelease();
  await until(() => running("alpha") === 2, "the next alpha job");
  await settle();
  assert.deepEqual([running("alpha"), running("beta"), running("gamma")], [2, 3, 10]);
  for (const done of release) done();
  await app.stop();
});
