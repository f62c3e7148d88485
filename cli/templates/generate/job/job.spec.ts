import assert from "node:assert/strict";
import { TestClock } from "@kit/kernel/testing";
import type { BackgroundJobsApi } from "@kit/jobs";
import { testApplication } from "../../../../platform/platform-test.module.ts";
import { $camel$Module } from "../../$context$.module.ts";
import { $name$ } from "./$kebab$.job.ts";

Deno.test("$name$ runs once per tick of $every$", async () => {
  const clock = new TestClock("2026-01-01T00:00:00Z");
  const application = testApplication([$camel$Module], { clock });
  const jobs = application.backgroundJobs as BackgroundJobsApi;
  // Only this job's runs are counted: the context's other scheduled jobs tick too.
  const ticks: string[] = [];
  const run = $name$.prototype.run;
  $name$.prototype.run = function (this: $name$, payload, execution) {
    ticks.push(clock.now().toISOString());
    return run.call(this, payload, execution);
  };
  try {
    await jobs.runDue();
    await jobs.runDue();
    assert.deepEqual(ticks, ["2026-01-01T00:00:00.000Z"], "one run for the first tick");
    clock.advance($everyMs$);
    await jobs.runDue();
    assert.equal(ticks.length, 2, "the next tick runs again");
  } finally {
    $name$.prototype.run = run;
  }
});
