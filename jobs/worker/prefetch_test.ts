import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { until } from "../../test_support/until.ts";
import { type BackgroundJobExecution, composeApplication, defineModule } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "../mod.ts";

let ran: { n: number; attempt: number }[] = [];
let release: (() => void)[] = [];

@Background({ lease: "3s" })
class Hold {
  static readonly jobName = "prefetch.hold";
  run(payload: { n: number }, execution: BackgroundJobExecution): Promise<void> {
    ran.push({ n: payload.n, attempt: execution.attempt });
    return new Promise((resolve) => release.push(resolve));
  }
}

function worker(prefetch: number) {
  ran = [];
  release = [];
  const store = new InMemoryJobStore();
  const clock = new TestClock();
  const app = composeApplication({
    modules: [defineModule("prefetch", { declarations: [Hold] })],
    clock,
    plugins: {
      backgroundJobs: jobsPlugin({ store, start: true, concurrency: 1, prefetch }),
    },
  });
  return { app, store, clock, jobs: app.backgroundJobs as BackgroundJobsApi };
}

async function statuses(jobs: BackgroundJobsApi, ids: string[]): Promise<string[]> {
  return await Promise.all(ids.map(async (id) => (await jobs.find(id))?.status ?? "absent"));
}

/**
 * A worker of concurrency 1 and prefetch 1, started with two due jobs: the first running, the
 * second claimed ahead of the busy slot.
 */
async function oneRunningOneHeld() {
  const started = worker(1);
  const { app, clock, jobs } = started;
  const first = await jobs.enqueue(Hold, { n: 1 }, { delay: 1 });
  const second = await jobs.enqueue(Hold, { n: 2 }, { delay: 2 });
  clock.advance(2);
  await app.start();
  await until(
    async () => ran.length === 1 && (await jobs.find(second.id))?.status === "running",
    "one run and one job claimed ahead",
  );
  return { ...started, first, second };
}

Deno.test("Worker prefetch: jobs claimed ahead of a busy slot run in due order", async () => {
  const { app, clock, jobs } = worker(2);
  const ids: string[] = [];
  for (const [n, delay] of [[3, 300], [1, 100], [2, 200]] as const) {
    ids.push((await jobs.enqueue(Hold, { n }, { delay })).id);
  }
  clock.advance(1_000);
  await app.start();
  await until(() => ran.length === 1, "the first run");
  await until(
    async () => (await statuses(jobs, ids)).every((s) => s === "running"),
    "the next two jobs to be claimed ahead",
  );
  for (let i = 1; i <= 3; i++) {
    await until(() => ran.length === i, `run ${i}`);
    release[i - 1]!();
  }
  await app.stop();
  assert.deepEqual(ran.map((r) => r.n), [1, 2, 3]);
  assert.deepEqual(await statuses(jobs, ids), ["succeeded", "succeeded", "succeeded"]);
});

Deno.test("Worker prefetch: stop() gives unstarted prefetched jobs back uncounted", async () => {
  const { app, clock, jobs } = worker(2);
  const ids: string[] = [];
  for (const n of [1, 2, 3]) ids.push((await jobs.enqueue(Hold, { n }, { delay: n })).id);
  clock.advance(3);
  await app.start();
  await until(
    async () => ran.length === 1 && (await statuses(jobs, ids)).every((s) => s === "running"),
    "one run and two jobs claimed ahead",
  );
  const stopping = app.stop();
  release[0]!();
  await stopping;
  assert.equal(ran.length, 1);
  assert.deepEqual(await statuses(jobs, ids), ["succeeded", "waiting", "waiting"]);
  assert.deepEqual([(await jobs.find(ids[1]!))?.attempts, (await jobs.find(ids[2]!))?.attempts], [
    0,
    0,
  ]);
});

Deno.test("Worker prefetch: a prefetched job whose lease ended is not run by the old worker", async () => {
  const { app, store, clock, first, second } = await oneRunningOneHeld();
  // Both leases end at once (a stalled process); another worker claims both jobs.
  clock.advance(3_001);
  const taken = await store.jobClaim({
    queue: "prefetch",
    limit: 2,
    now: clock.now(),
    leases: {},
    defaultLeaseMs: 3_000,
  });
  assert.deepEqual(taken.map((job) => job.id), [first.id, second.id]);
  release[0]!();
  await turns(50);
  await app.stop();
  assert.deepEqual(ran.map((r) => r.n), [1], "the job held ahead did not run");
  for (const job of taken) {
    assert.equal(
      await store.jobComplete({ id: job.id, leaseToken: job.leaseToken, now: clock.now() }),
      true,
      "the other worker still holds the job",
    );
  }
});

Deno.test("Worker prefetch: a job held ahead longer than a third of its lease is given back", async () => {
  const { app, clock, jobs, second } = await oneRunningOneHeld();
  clock.advance(1_000);
  await until(async () => (await jobs.find(second.id))?.status === "waiting", "the give-back");
  assert.equal((await jobs.find(second.id))?.attempts, 0);
  release[0]!();
  await until(() => ran.length === 2, "the job given back to run once a slot frees");
  assert.deepEqual(ran[1], { n: 2, attempt: 1 });
  release[1]!();
  await app.stop();
});

Deno.test("Worker prefetch: a job cancelled while held ahead does not start", async () => {
  const { app, clock, jobs, first, second } = await oneRunningOneHeld();
  assert.ok(await jobs.cancel(second.id));
  clock.advance(500); // held longer than a tenth of its 3 s lease: asked about before it starts
  release[0]!();
  await until(async () => (await jobs.find(first.id))?.status === "succeeded", "the first run");
  await turns(20);
  await app.stop();
  assert.deepEqual(ran.map((r) => r.n), [1]);
  assert.equal((await jobs.find(second.id))?.status, "cancelled");
});

Deno.test("Worker prefetch: a prefetch that is not an integer from 0 is refused", () => {
  assert.throws(
    () => worker(-1),
    /The prefetch of queue 'prefetch' must be an integer from 0, got -1/,
  );
  assert.throws(() => worker(1.5), /got 1\.5/);
});
