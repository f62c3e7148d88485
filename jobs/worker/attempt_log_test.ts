import assert from "node:assert/strict";
import {
  composeApplication,
  ConceptError,
  consoleLogger,
  defineModule,
  summarisingLogger,
} from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Background, type BackgroundJobsApi, InMemoryJobStore, jobsPlugin } from "../mod.ts";

@Background({ maxAttempts: 3, backoff: () => 1_000 })
class ChargeCard {
  static readonly jobName = "billing.charge-card";
  run(): Promise<void> {
    return Promise.reject(new ConceptError("refusal", "CARD_DECLINED", "The card was declined"));
  }
}

Deno.test("Worker writes a failed attempt as one warn line per failure code, summarised, and a dead job as JOB_DEAD", async () => {
  const clock = new TestClock("2026-06-01T08:00:00Z");
  const lines: Record<string, unknown>[] = [];
  const logger = summarisingLogger(
    consoleLogger({ format: "json", clock, write: (line) => lines.push(JSON.parse(line)) }),
    { clock, windowMs: 60_000 },
  );
  const app = composeApplication({
    modules: [defineModule("billing", { declarations: [ChargeCard] })],
    clock,
    logger,
    errorReporter: { report: () => assert.fail("a refusal is no unexpected error") },
    plugins: { backgroundJobs: jobsPlugin({ store: new InMemoryJobStore(), start: false }) },
  });
  const jobs = app.backgroundJobs as BackgroundJobsApi;
  for (let i = 0; i < 5; i++) await jobs.enqueue(ChargeCard, {});
  for (let attempt = 1; attempt <= 3; attempt++) {
    await jobs.runDue().catch(() => {});
    clock.advance(1_000);
  }
  logger.flush();
  assert.deepEqual(
    lines.map((line) => [line.level, line.component, line.code, line.count]),
    [
      ["warn", "jobs.worker", "CARD_DECLINED", 1],
      ["error", "jobs.worker", "JOB_DEAD", 1],
      ["warn", "jobs.worker", "CARD_DECLINED", 9],
      ["error", "jobs.worker", "JOB_DEAD", 4],
    ],
  );
  assert.equal(lines[1]!.errorCode, "CARD_DECLINED");
  assert.equal(lines[0]!.job, "billing.charge-card");
});
