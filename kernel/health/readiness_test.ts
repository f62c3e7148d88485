import assert from "node:assert/strict";
import { checkReadiness } from "../mod.ts";
import { TestClock } from "../testing.ts";

Deno.test("checkReadiness is ready when every check answers, and names each", async () => {
  const report = await checkReadiness({
    jobs: () => Promise.resolve("pong"),
    database: () => Promise.resolve(),
  });
  assert.deepEqual(report, {
    status: "ready",
    checks: { database: { status: "up" }, jobs: { status: "up" } },
  });
});

Deno.test("checkReadiness: a check that fails or throws is down, the error given to onFailure only", async () => {
  const failures: [string, unknown][] = [];
  const report = await checkReadiness({
    database: () => Promise.reject(new Error("connect ECONNREFUSED 10.0.0.7:5432")),
    jobs: () => {
      throw new Error("no client");
    },
    cache: () => Promise.resolve(),
  }, { onFailure: (name, error) => failures.push([name, error]) });
  assert.deepEqual(report, {
    status: "unavailable",
    checks: {
      cache: { status: "up" },
      database: { status: "down", reason: "failed" },
      jobs: { status: "down", reason: "failed" },
    },
  });
  assert.deepEqual(failures.map(([name]) => name).sort(), ["database", "jobs"]);
  assert.ok(!JSON.stringify(report).includes("10.0.0.7"));
});

Deno.test("checkReadiness: a check that does not answer within the time-out is down and its signal aborted", async () => {
  const clock = new TestClock(0);
  let signal: AbortSignal | undefined;
  const pending = checkReadiness({
    database: (s) => {
      signal = s;
      return new Promise(() => {});
    },
    jobs: () => Promise.resolve(),
  }, { timeout: "2s", clock });
  // The check that answered stops its timer: one sleeper is left, the database's.
  for (let i = 0; i < 100 && clock.pendingSleepers !== 1; i++) await Promise.resolve();
  assert.equal(clock.pendingSleepers, 1);
  clock.advance(1_999);
  assert.equal(signal?.aborted, false);
  clock.advance(1);
  const report = await pending;
  assert.deepEqual(report.checks.database, { status: "down", reason: "timed out" });
  assert.deepEqual(report.checks.jobs, { status: "up" });
  assert.equal(report.status, "unavailable");
  assert.equal(signal?.aborted, true);
  assert.equal(clock.pendingSleepers, 0, "no timer left behind");
});
