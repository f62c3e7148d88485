import assert from "node:assert/strict";
import { until } from "../../test_support/until.ts";
import { composeApplication, defineModule } from "@kit/kernel";
import { TestClock } from "@kit/kernel/testing";
import { Background, InMemoryJobStore, jobsPlugin } from "../mod.ts";
import type { ClaimedJob, JobClaimParams } from "../store.ts";

/** A store that tells its listener of the queues the test names, and records each claim's queue. */
class NotifyingStore extends InMemoryJobStore {
  readonly claims: string[] = [];
  notify: (queue: string) => void = () => {};
  override jobClaim(params: JobClaimParams): Promise<ClaimedJob[]> {
    this.claims.push(params.queue);
    return super.jobClaim(params);
  }
  jobListen = (onJob: (queue: string) => void): Promise<() => Promise<void>> => {
    this.notify = onJob;
    return Promise.resolve(() => Promise.resolve());
  };
}

@Background()
class AlphaJob {
  static readonly jobName = "alpha.job";
  run(): Promise<void> {
    return Promise.resolve();
  }
}

@Background()
class BetaJob {
  static readonly jobName = "beta.job";
  run(): Promise<void> {
    return Promise.resolve();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("Worker: a notification wakes the loop of its queue only; one for a queue it does not consume wakes none", async () => {
  const store = new NotifyingStore();
  const app = composeApplication({
    modules: [
      defineModule("alpha", { declarations: [AlphaJob] }),
      defineModule("beta", { declarations: [BetaJob] }),
    ],
    clock: new TestClock("2026-06-01T08:00:00Z"),
    errorReporter: { report: () => {} },
    plugins: { backgroundJobs: jobsPlugin({ store, start: true }) },
  });
  await app.start();
  await until(() => store.claims.length === 2, "each loop's first claim");
  await settle();
  assert.deepEqual([...store.claims].sort(), ["alpha", "beta"]);

  store.notify("beta");
  await until(() => store.claims.length >= 3, "beta's claim");
  await settle();
  assert.deepEqual(store.claims.slice(2), ["beta"], "alpha's loop goes on waiting");

  store.notify("gamma");
  await settle();
  assert.equal(store.claims.length, 3, "no claim for a queue of another worker");
  await app.stop();
});
