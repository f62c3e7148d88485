import assert from "node:assert/strict";
import { consoleLogger, type LogLevel } from "./logger.ts";
import { TestClock } from "../time/test_clock.ts";

const at = new Date("2026-11-26T12:00:00.000Z");

function capture(format: "text" | "json", level?: LogLevel) {
  const lines: string[] = [];
  const clock = new TestClock(at);
  const logger = consoleLogger({
    format,
    clock,
    ...(level ? { level } : {}),
    write: (line) => lines.push(line),
  });
  return { lines, logger };
}

Deno.test("consoleLogger() writes one text line with time, level, component, code and count", () => {
  const { lines, logger } = capture("text");
  logger.log({
    level: "error",
    component: "outbox.relay",
    code: "RELAY_STALLED",
    message: "the relay has not advanced",
    details: { pending: 3 },
  });
  assert.deepEqual(lines, [
    "2026-11-26T12:00:00.000Z ERROR outbox.relay RELAY_STALLED the relay has not advanced count=1 pending=3",
  ]);
});

Deno.test("consoleLogger() in JSON writes an object a shipper parses, error without its stack unless a bug", () => {
  const { lines, logger } = capture("json");
  const error = Object.assign(new Error("too many clients"), { code: "53300" });
  logger.log({ level: "warn", component: "db.pool", code: "CONNECT_FAILED", message: "m", error });
  logger.log({ level: "error", component: "http", code: "BUG", message: "m", error, bug: true });
  const [first, second] = lines.map((line) => JSON.parse(line));
  assert.equal(first.time, at.toISOString());
  assert.equal(first.level, "warn");
  assert.equal(first.count, 1);
  assert.equal(first.error, "Error 53300: too many clients");
  assert.match(second.error, /logger_test\.ts/);
  assert.equal(lines.length, 2);
});

Deno.test("consoleLogger() drops lines below its level", () => {
  const { lines, logger } = capture("text", "warn");
  logger.log({ level: "info", component: "c", code: "X", message: "m" });
  assert.equal(lines.length, 0);
});
