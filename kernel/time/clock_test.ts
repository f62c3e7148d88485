import assert from "node:assert/strict";
import { systemClock, toMilliseconds } from "../internal.ts";
import { TestClock } from "../testing.ts";

Deno.test("TestClock wakes sleepers in order of their time when advanced past it", async () => {
  const clock = new TestClock("2026-01-01T00:00:00Z");
  const woken: string[] = [];
  const a = clock.sleep(2_000).then(() => woken.push("a"));
  const b = clock.sleep(1_000).then(() => woken.push("b"));
  const c = clock.sleep(5_000).then(() => woken.push("c"));
  clock.advance(999);
  await Promise.resolve();
  assert.deepEqual(woken, []);
  clock.advance(1_001);
  await Promise.all([a, b]);
  assert.deepEqual(woken, ["b", "a"]);
  assert.equal(clock.pendingSleepers, 1);
  clock.set("2026-01-01T00:00:05Z");
  await c;
  assert.deepEqual(woken, ["b", "a", "c"]);
  assert.equal(clock.now().toISOString(), "2026-01-01T00:00:05.000Z");
});

Deno.test("TestClock rejects a sleep whose signal aborts, and refuses to move backwards", async () => {
  const clock = new TestClock();
  const controller = new AbortController();
  const sleeping = clock.sleep(1_000, controller.signal);
  controller.abort(new Error("stopped"));
  await assert.rejects(sleeping, { message: "stopped" });
  assert.equal(clock.pendingSleepers, 0);
  assert.throws(() => clock.advance(-1), { message: "A clock moves forward only, got -1 ms" });
  assert.throws(() => new TestClock("not a date"), /Invalid start instant not a date/);
});

Deno.test("systemClock.sleep rejects at once when its signal is already aborted", async () => {
  const controller = new AbortController();
  controller.abort(new Error("already"));
  await assert.rejects(systemClock.sleep(10_000, controller.signal), { message: "already" });
});

Deno.test("toMilliseconds reads milliseconds and ms/s/m/h/d text, and names bad input", () => {
  assert.equal(toMilliseconds(250), 250);
  assert.equal(toMilliseconds("500ms"), 500);
  assert.equal(toMilliseconds("30s"), 30_000);
  assert.equal(toMilliseconds("1m"), 60_000);
  assert.equal(toMilliseconds("30m"), 1_800_000);
  assert.equal(toMilliseconds("1.5h"), 5_400_000);
  assert.equal(toMilliseconds("1d"), 86_400_000);
  assert.throws(() => toMilliseconds("10 minutes" as never), /Invalid duration '10 minutes'/);
  assert.throws(() => toMilliseconds(-1), /got -1/);
  assert.throws(() => toMilliseconds(Number.NaN), /got NaN/);
});
