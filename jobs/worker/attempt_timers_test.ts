import assert from "node:assert/strict";
import { type Clock, composeApplication, defineModule } from "@kit/kernel";
import { systemClock } from "@kit/kernel/internal";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import { AttemptTimers } from "./attempt_timers.ts";

/** Lets the clock's resolved sleep run its callbacks. */
function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("AttemptTimers fire each deadline once the clock reaches it, in order, on one sleep", async () => {
  const clock = new TestClock();
  const timers = new AttemptTimers(clock);
  const t0 = clock.now().getTime();
  const fired: string[] = [];
  timers.schedule(t0 + 300, () => fired.push("c"));
  timers.schedule(t0 + 100, () => fired.push("a"));
  timers.schedule(t0 + 200, () => fired.push("b1"));
  timers.schedule(t0 + 200, () => fired.push("b2"));
  timers.schedule(t0 + 1_000, () => fired.push("d"));
  assert.equal(clock.pendingSleepers, 1, "one sleep for every deadline");
  clock.advance(99);
  await turn();
  assert.deepEqual(fired, []);
  clock.advance(1);
  await turn();
  assert.deepEqual(fired, ["a"]);
  clock.advance(250);
  await turn();
  assert.deepEqual(fired, ["a", "b1", "b2", "c"], "by instant, then in the order scheduled");
  assert.equal(timers.size, 1);
  clock.advance(650);
  await turn();
  assert.deepEqual(fired, ["a", "b1", "b2", "c", "d"]);
  assert.equal(timers.size, 0);
  assert.equal(clock.pendingSleepers, 0, "no sleep once nothing waits");
});

Deno.test("A cancelled deadline never fires; the others keep their instants", async () => {
  const clock = new TestClock();
  const timers = new AttemptTimers(clock);
  const t0 = clock.now().getTime();
  const fired: number[] = [];
  const handles = [500, 100, 400, 200, 300].map((ms) =>
    timers.schedule(t0 + ms, () => fired.push(ms))
  );
  timers.cancel(handles[1]!); // the earliest: the armed sleep wakes for nothing, then re-arms
  timers.cancel(handles[2]!);
  timers.cancel(handles[2]!); // twice: nothing
  assert.equal(timers.size, 3);
  clock.advance(150);
  await turn();
  assert.deepEqual(fired, []);
  clock.advance(50);
  await turn();
  assert.deepEqual(fired, [200]);
  clock.advance(300);
  await turn();
  assert.deepEqual(fired, [200, 300, 500]);
  timers.cancel(handles[0]!); // fired already: nothing
  assert.equal(timers.size, 0);
});

Deno.test("A deadline earlier than every other arms the sleep again; one scheduled while firing fires at its instant", async () => {
  const clock = new TestClock();
  const timers = new AttemptTimers(clock);
  const t0 = clock.now().getTime();
  const fired: string[] = [];
  timers.schedule(t0 + 1_000, () => fired.push("late"));
  timers.schedule(t0 + 10, () => {
    fired.push("early");
    timers.schedule(clock.now().getTime() + 10, () => fired.push("again"));
    timers.schedule(clock.now().getTime(), () => fired.push("due now"));
  });
  clock.advance(10);
  await turn();
  assert.deepEqual(fired, ["early", "due now"]);
  clock.advance(10);
  await turn();
  assert.deepEqual(fired, ["early", "due now", "again"]);
  clock.advance(980);
  await turn();
  assert.deepEqual(fired, ["early", "due now", "again", "late"]);
});

Deno.test("close() ends the armed sleep; a later deadline arms it again", async () => {
  const clock = new TestClock();
  const timers = new AttemptTimers(clock);
  const t0 = clock.now().getTime();
  const fired: number[] = [];
  const handle = timers.schedule(t0 + 100, () => fired.push(1));
  timers.cancel(handle);
  assert.equal(clock.pendingSleepers, 1, "a cancelled earliest deadline leaves the sleep armed");
  timers.close();
  assert.equal(clock.pendingSleepers, 0);
  timers.schedule(t0 + 50, () => fired.push(2));
  assert.equal(clock.pendingSleepers, 1);
  clock.advance(100);
  await turn();
  assert.deepEqual(fired, [2]);
});

Deno.test("Many deadlines scheduled and cancelled out of order fire exactly the kept ones, sorted", async () => {
  const clock = new TestClock();
  const timers = new AttemptTimers(clock);
  const t0 = clock.now().getTime();
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const fired: number[] = [];
  const kept: number[] = [];
  const handles = Array.from({ length: 500 }, (_, i) => {
    const at = t0 + 1 + Math.floor(random() * 1_000);
    return { i, at, handle: timers.schedule(at, () => fired.push(i)) };
  });
  for (const { i, at, handle } of handles) {
    if (random() < 0.5) timers.cancel(handle);
    else kept.push(i + at * 1_000);
  }
  clock.advance(2_000);
  await turn();
  const expected = kept.sort((a, b) => a - b).map((key) => key % 1_000);
  assert.deepEqual(fired, expected);
  assert.equal(timers.size, 0);
});

@Background()
class Noop {
  static readonly jobName = "billing.noop";
  run(): Promise<void> {
    return Promise.resolve();
  }
}

Deno.test("runDue() on the real clock leaves no sleep behind once it returned", async () => {
  let sleeping = 0;
  const clock: Clock = {
    now: () => systemClock.now(),
    sleep(ms, signal) {
      sleeping++;
      return systemClock.sleep(ms, signal).finally(() => sleeping--);
    },
  };
  const app = composeApplication({
    modules: [defineModule("billing", { declarations: [Noop] })],
    clock,
    errorReporter: { report: (error) => assert.fail(String(error)) },
    plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore(), start: false }) },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  await jobs.enqueue(Noop, {});
  assert.equal(await jobs.runDue(), 1);
  await turn();
  assert.equal(sleeping, 0, "the attempt's heartbeat deadline armed a sleep: runDue ends it");
});
