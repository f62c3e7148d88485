import assert from "node:assert/strict";
import { BodyDeadline, timedOut } from "./body_deadline.ts";

const never = new Promise<never>(() => {});

Deno.test("body deadlines started together time out together, never before their timeout", async () => {
  const started = performance.now();
  const deadlines = Array.from({ length: 50 }, () => new BodyDeadline(20));
  const reads = deadlines.map((deadline) => deadline.race(never));
  assert.deepEqual(await Promise.all(reads), deadlines.map(() => timedOut));
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 20, `timed out after ${elapsed} ms`);
  for (const deadline of deadlines) deadline.clear();
});

Deno.test("a read done in time wins, and its shared timer goes with the last read (no timer left)", async () => {
  const first = new BodyDeadline(10_000);
  const second = new BodyDeadline(10_000);
  assert.equal(await first.race(Promise.resolve("body")), "body");
  assert.equal(await second.race(Promise.resolve("other")), "other");
  first.clear();
  // One read still holds the slot; the test's sanitizer would fail on a timer left after it.
  second.clear();
  second.clear();
});

Deno.test("a deadline without a limit is the read itself", async () => {
  const deadline = new BodyDeadline(Infinity);
  const read = Promise.resolve(1);
  assert.equal(deadline.race(read), read);
  deadline.clear();
});
