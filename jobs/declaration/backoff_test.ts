import assert from "node:assert/strict";
import { exponentialBackoff } from "../mod.ts";

Deno.test("exponentialBackoff doubles from 1 s and caps at 5 min by default", () => {
  const backoff = exponentialBackoff();
  assert.deepEqual([1, 2, 3, 4].map(backoff), [1_000, 2_000, 4_000, 8_000]);
  assert.equal(backoff(9), 256_000);
  assert.equal(backoff(10), 300_000);
  assert.equal(backoff(50), 300_000);
});

Deno.test("exponentialBackoff takes off a random share of each wait with jitter", () => {
  assert.equal(exponentialBackoff({ jitter: 0.5, random: () => 1 })(3), 2_000);
  assert.equal(exponentialBackoff({ jitter: 0.5, random: () => 0 })(3), 4_000);
  assert.equal(exponentialBackoff({ initial: "10s", factor: 3, max: "1m" })(2), 30_000);
  assert.throws(() => exponentialBackoff({ jitter: 2 }), /jitter must be from 0 to 1, got 2/);
  assert.throws(() => exponentialBackoff({ factor: 0.5 }), /factor must be at least 1, got 0.5/);
});
