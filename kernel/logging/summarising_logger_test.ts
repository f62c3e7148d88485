import assert from "node:assert/strict";
import { turns } from "../../test_support/turn.ts";
import { consoleLogger, type LogRecord } from "./logger.ts";
import { summarisingLogger } from "./summarising_logger.ts";
import { TestClock } from "../time/test_clock.ts";

function capture(options: { windowMs?: number; maxProblems?: number } = {}) {
  const lines: Record<string, unknown>[] = [];
  const clock = new TestClock("2026-11-26T12:00:00.000Z");
  const inner = consoleLogger({
    format: "json",
    clock,
    level: "debug",
    write: (line) => lines.push(JSON.parse(line)),
  });
  return { lines, clock, logger: summarisingLogger(inner, { clock, ...options }) };
}

const down: LogRecord = {
  level: "warn",
  component: "db.pool",
  code: "DATABASE_UNAVAILABLE",
  message: "The database is unavailable",
};

/** Lets the timers the clock woke run. */
const settle = () => turns();

Deno.test("summarisingLogger() writes a problem's first line at once and its repeats as one line with their count when the window ends", async () => {
  const { lines, clock, logger } = capture();
  logger.log(down);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.count, 1);
  for (let i = 0; i < 999; i++) {
    clock.advance(5);
    logger.log({ ...down, details: { attempt: i } });
  }
  assert.equal(lines.length, 1);
  clock.set("2026-11-26T12:00:10.000Z");
  await settle();
  assert.equal(lines.length, 2);
  assert.equal(lines[1]!.code, "DATABASE_UNAVAILABLE");
  assert.equal(lines[1]!.component, "db.pool");
  assert.equal(lines[1]!.count, 999);
  assert.equal(lines[1]!.attempt, 998, "the last repeat's details");
  assert.equal(lines[1]!.time, "2026-11-26T12:00:10.000Z");
});

Deno.test("summarisingLogger() writes one summary per window while a problem lasts, and its first line again once it stopped", async () => {
  const { lines, clock, logger } = capture();
  // 35 s of an outage: a failure every 100 ms.
  for (let ms = 0; ms < 35_000; ms += 100) {
    logger.log(down);
    clock.advance(100);
    await settle();
  }
  assert.deepEqual(lines.map((line) => line.count), [1, 99, 100, 100]);
  // Quiet for a window: the next window ends with nothing counted, the problem is forgotten.
  clock.advance(20_000);
  await settle();
  assert.deepEqual(lines.map((line) => line.count), [1, 99, 100, 100, 50]);
  logger.log(down);
  assert.equal(lines.length, 6);
  assert.equal(lines[5]!.count, 1);
});

Deno.test("summarisingLogger() counts each component and code apart, and each bug by its error", () => {
  const { lines, logger } = capture();
  const bug = (message: string): LogRecord => ({
    level: "error",
    component: "http",
    code: "UNEXPECTED_ERROR",
    message: "An unexpected error",
    error: new TypeError(message),
    bug: true,
  });
  logger.log(down);
  logger.log({ ...down, component: "jobs.worker" });
  logger.log({ ...down, code: "REDIS_UNAVAILABLE" });
  logger.log(bug("x is undefined"));
  logger.log(bug("y is undefined"));
  logger.log(bug("x is undefined"));
  logger.log(down);
  assert.equal(lines.length, 5);
  assert.match(String(lines[3]!.error), /x is undefined\n\s+at /);
  logger.flush();
  assert.equal(lines.length, 7);
  assert.deepEqual(
    lines.slice(5).map((line) => [line.component, line.code, line.count, line.bug]),
    [["db.pool", "DATABASE_UNAVAILABLE", 1, undefined], ["http", "UNEXPECTED_ERROR", 1, true]],
  );
  assert.equal(lines[6]!.error, undefined, "a summary holds no stack");
});

Deno.test("summarisingLogger() summarises at the level of the worst repeat", () => {
  const { lines, logger } = capture();
  logger.log({ ...down, level: "info" });
  logger.log({ ...down, level: "error" });
  logger.log({ ...down, level: "warn" });
  logger.flush();
  assert.deepEqual(lines.map((line) => line.level), ["info", "error"]);
});

Deno.test("summarisingLogger() keeps at most maxProblems problems and counts the lines beyond as dropped", () => {
  const { lines, logger } = capture({ maxProblems: 3 });
  for (let i = 0; i < 1_000; i++) logger.log({ ...down, code: `CODE_${i}` });
  assert.equal(lines.length, 3);
  logger.flush();
  assert.equal(lines.length, 4);
  assert.equal(lines[3]!.code, "LOG_LINES_DROPPED");
  assert.equal(lines[3]!.count, 997);
});

Deno.test("summarisingLogger() flush() writes what is counted and leaves no timer behind", () => {
  const { lines, clock, logger } = capture();
  logger.log(down);
  logger.log(down);
  assert.equal(clock.pendingSleepers, 1);
  logger.flush();
  assert.equal(clock.pendingSleepers, 0);
  assert.deepEqual(lines.map((line) => line.count), [1, 1]);
  logger.flush();
  assert.equal(lines.length, 2);
});

Deno.test("summarisingLogger() refuses a window or a bound out of range", () => {
  const inner = consoleLogger({ write: () => {} });
  assert.throws(() => summarisingLogger(inner, { windowMs: 0 }), /windowMs must be above 0/);
  assert.throws(() => summarisingLogger(inner, { maxProblems: 0 }), /maxProblems/);
});
