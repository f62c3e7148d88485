import assert from "node:assert/strict";
import type { LogRecord } from "../logging/logger.ts";
import { TestClock } from "../time/test_clock.ts";
import { shutdownWithin } from "./shutdown_deadline.ts";

function harness() {
  const clock = new TestClock();
  const exits: number[] = [];
  const lines: LogRecord[] = [];
  return {
    clock,
    exits,
    lines,
    options: {
      deadline: "10s" as const,
      clock,
      exit: (code: number) => void exits.push(code),
      logger: { log: (record: LogRecord) => void lines.push(record) },
    },
  };
}

Deno.test("shutdownWithin: a shutdown that finishes in time exits with 0, once however many signals come", async () => {
  const { exits, lines, options } = harness();
  let stops = 0;
  const shutdown = shutdownWithin(() => {
    stops++;
    return Promise.resolve();
  }, options);
  await Promise.all([shutdown(), shutdown()]);
  await shutdown();
  assert.equal(stops, 1);
  assert.deepEqual(exits, [0]);
  assert.deepEqual(lines, []);
});

Deno.test("shutdownWithin: a shutdown that never finishes ends the process at its deadline with 1 and one SHUTDOWN_DEADLINE line", async () => {
  const { clock, exits, lines, options } = harness();
  const shutdown = shutdownWithin(() => new Promise(() => {}), options);
  const ended = shutdown();
  await Promise.resolve();
  clock.advance(9_999);
  await Promise.resolve();
  assert.deepEqual(exits, [], "not before the deadline");
  clock.advance(1);
  await ended;
  assert.deepEqual(exits, [1]);
  assert.deepEqual(lines.map((line) => [line.component, line.code]), [
    ["shutdown", "SHUTDOWN_DEADLINE"],
  ]);
});

Deno.test("shutdownWithin: a shutdown that fails exits with 1 and one SHUTDOWN_FAILED line carrying the error", async () => {
  const { exits, lines, options } = harness();
  const failure = new Error("pool end failed");
  await shutdownWithin(() => Promise.reject(failure), options)();
  assert.deepEqual(exits, [1]);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]?.code, "SHUTDOWN_FAILED");
  assert.equal(lines[0]?.error, failure);
});
