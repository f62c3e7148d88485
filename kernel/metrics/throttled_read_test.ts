import assert from "node:assert/strict";
import { ThrottledRead } from "../internal.ts";
import { TestClock } from "../testing.ts";

Deno.test("ThrottledRead reads at most once per maxAgeMs, however many ask", async () => {
  const clock = new TestClock();
  let reads = 0;
  const counts = new ThrottledRead({
    read: () => Promise.resolve(++reads),
    clock,
    maxAgeMs: 10_000,
    timeoutMs: 5_000,
  });
  assert.deepEqual(await Promise.all([counts.value(), counts.value()]), [1, 1]);
  clock.advance(9_999);
  assert.equal(await counts.value(), 1);
  clock.advance(1);
  assert.equal(await counts.value(), 2);
  assert.equal(reads, 2);
});

Deno.test("ThrottledRead rejects a read past its deadline, aborts it, and starts no other until it ends", async () => {
  const clock = new TestClock();
  let signal: AbortSignal | undefined;
  let reads = 0;
  let end = (_value: number) => {};
  const counts = new ThrottledRead({
    read: (s) => {
      signal = s;
      reads++;
      return new Promise<number>((resolve) => end = resolve);
    },
    clock,
    maxAgeMs: 10_000,
    timeoutMs: 5_000,
  });
  const first = counts.value();
  await Promise.resolve();
  clock.advance(5_000);
  await assert.rejects(first, /more than 5000 ms/);
  assert.equal(signal?.aborted, true);
  await assert.rejects(counts.value(), /previous read has not ended/);
  assert.equal(reads, 1);
  end(1);
  await Promise.resolve();
  const second = counts.value();
  end(7);
  assert.equal(await second, 7);
  assert.equal(reads, 2);
  assert.equal(clock.pendingSleepers, 0);
});

Deno.test("ThrottledRead refuses a duration that is not a positive number of ms", () => {
  const read = () => Promise.resolve(0);
  const clock = new TestClock();
  assert.throws(
    () => new ThrottledRead({ read, clock, maxAgeMs: 0, timeoutMs: 1 }),
    /maxAgeMs must be a number of ms > 0, got 0/,
  );
  assert.throws(
    () => new ThrottledRead({ read, clock, maxAgeMs: 1, timeoutMs: Infinity }),
    /timeoutMs must be a number of ms > 0, got Infinity/,
  );
});
