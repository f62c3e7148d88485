import assert from "node:assert/strict";
import { consoleLogger } from "../logging/logger.ts";
import { summarisingLogger } from "../logging/summarising_logger.ts";
import { TestClock } from "../time/test_clock.ts";
import { loggingErrorReporter } from "./error_reporter.ts";
import { ConceptError } from "./concept_error.ts";
import { ConcurrentUpdateError, ServiceUnavailableError } from "./kernel_refusals.ts";

function capture() {
  const lines: string[] = [];
  const clock = new TestClock();
  const logger = consoleLogger({ format: "json", clock, write: (line) => lines.push(line) });
  return { lines, clock, logger };
}

const outages: [string, unknown, string][] = [
  [
    "a refused connection",
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    "SERVICE_UNAVAILABLE",
  ],
  [
    "a connect time-out",
    Object.assign(new Error("t"), { code: "CONNECT_TIMEOUT" }),
    "DATABASE_UNAVAILABLE",
  ],
  [
    "an acquire time-out",
    Object.assign(new Error("t"), { code: "ACQUIRE_TIMEOUT" }),
    "DATABASE_UNAVAILABLE",
  ],
  [
    "a statement time-out",
    Object.assign(new Error("canceling"), { code: "57014" }),
    "DATABASE_UNAVAILABLE",
  ],
  [
    "a server shutting down",
    Object.assign(new Error("terminating"), { code: "57P01" }),
    "DATABASE_UNAVAILABLE",
  ],
  [
    "a 503 refusal of the database",
    new ServiceUnavailableError("database", { reason: "connection refused" }),
    "DATABASE_UNAVAILABLE",
  ],
  ["ioredis with Redis down", new Error("Connection is closed."), "REDIS_UNAVAILABLE"],
  [
    "a 503 refusal of the Redis job store",
    new ConceptError(
      "conflict",
      "SERVICE_UNAVAILABLE",
      "Redis is unreachable (claim): ECONNREFUSED",
    ),
    "REDIS_UNAVAILABLE",
  ],
  [
    "ioredis out of retries",
    Object.assign(new Error("Reached the max retries per request limit"), {
      name: "MaxRetriesPerRequestError",
    }),
    "REDIS_UNAVAILABLE",
  ],
  [
    "a statement without an answer in time (postgres.js query_timeout)",
    Object.assign(new Error("write QUERY_TIMEOUT 127.0.0.1:5432"), { code: "QUERY_TIMEOUT" }),
    "DATABASE_UNAVAILABLE",
  ],
  [
    "an outage wrapped in the error of a job",
    new Error("the job failed", {
      cause: Object.assign(new Error("t"), { code: "CONNECTION_CLOSED" }),
    }),
    "DATABASE_UNAVAILABLE",
  ],
];

for (const [name, error, code] of outages) {
  Deno.test(`loggingErrorReporter() writes ${name} as one warn line with its code and no stack`, () => {
    const { lines, logger } = capture();
    loggingErrorReporter(logger).report(error, { origin: "queue", details: { stage: "claim" } });
    assert.equal(lines.length, 1);
    assert.doesNotMatch(lines[0]!, /\\n\s*at /);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.level, "warn");
    assert.equal(line.code, code);
    assert.equal(line.component, "jobs.worker");
    assert.equal(line.stage, "claim");
    assert.equal(line.bug, undefined);
    assert.equal(typeof line.reason, "string");
    assert.equal(typeof line.error, "string", "the error's name, code and message");
  });
}

Deno.test("loggingErrorReporter() writes a deadlock as a warn line CONCURRENT_UPDATE, no stack", () => {
  const { lines, logger } = capture();
  const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
  loggingErrorReporter(logger).report(ConcurrentUpdateError.ofTransaction(deadlock), {
    origin: "event",
  });
  const line = JSON.parse(lines[0]!);
  assert.deepEqual([line.level, line.component, line.code, line.reason], [
    "warn",
    "outbox.relay",
    "CONCURRENT_UPDATE",
    "deadlock",
  ]);
  assert.equal(
    line.error,
    "ConcurrentUpdateError CONCURRENT_UPDATE: Other work changed the same data meanwhile: nothing was kept, retry",
  );
});

Deno.test("loggingErrorReporter() writes a bug as one error line UNEXPECTED_ERROR with bug: true and its stack", () => {
  const { lines, logger } = capture();
  loggingErrorReporter(logger).report(new TypeError("x is undefined"), {
    origin: "http",
    details: { route: "POST /appointments" },
  });
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]!);
  assert.equal(line.level, "error");
  assert.equal(line.code, "UNEXPECTED_ERROR");
  assert.equal(line.bug, true);
  assert.equal(line.route, "POST /appointments");
  assert.match(line.message, /TypeError: x is undefined/);
  assert.match(line.error, /error_reporter_test\.ts/);
});

Deno.test("loggingErrorReporter() writes a job lost to an outage as an error line JOB_LOST", () => {
  const { lines, logger } = capture();
  loggingErrorReporter(logger).report(new Error("Connection is closed."), {
    origin: "queue",
    details: { stage: "lost-job", jobId: "j-1" },
  });
  const line = JSON.parse(lines[0]!);
  assert.deepEqual([line.level, line.code, line.jobId, line.error], [
    "error",
    "JOB_LOST",
    "j-1",
    undefined,
  ]);
});

Deno.test("loggingErrorReporter() over a summarising logger: 10,000 failures of an outage are two lines", () => {
  const { lines, clock, logger } = capture();
  const summarising = summarisingLogger(logger, { clock });
  const reporter = loggingErrorReporter(summarising);
  const refused = Object.assign(new Error("refused"), { code: "CONNECT_TIMEOUT" });
  for (let i = 0; i < 10_000; i++) reporter.report(refused, { origin: "event" });
  summarising.flush();
  assert.deepEqual(lines.map((line) => JSON.parse(line).count), [1, 9_999]);
});
