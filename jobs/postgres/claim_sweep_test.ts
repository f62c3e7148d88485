import assert from "node:assert/strict";
import { systemActor } from "@kit/kernel";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import type { NewJob } from "../store/job_store.ts";

const t0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const leases = { leases: {}, defaultLeaseMs: 1_000 } as const;

function job(id: string, runAt: Date): NewJob {
  return {
    id,
    name: "bench.noop",
    queue: "bench",
    payload: {},
    actor: systemActor,
    correlationId: "corr",
    maxAttempts: 3,
    runAt,
    createdAt: t0,
  };
}

Deno.test({
  name:
    "PostgresJobStore: a busy queue claims due jobs first; an ended lease is taken back within a second",
  ignore: ignoreWithout("DATABASE_URL"),
  fn: () =>
    withTestDatabase(async ({ sql }) => {
      await migrateJobs(sql);
      const store = new PostgresJobStore(sql);
      const claim = async (ms: number) =>
        (await store.jobClaim({ queue: "bench", limit: 1, now: at(ms), ...leases }))
          .map((j) => `${j.id}#${j.attempt}`);
      await store.jobInsert({ job: job("a", t0) });
      assert.deepEqual(await claim(0), ["a#1"]); // its lease ends at 1 000
      assert.deepEqual(await claim(500), []); // an idle claim sweeps at 500
      await store.jobInsertMany({ jobs: [job("d1", at(100)), job("d2", at(100))] });
      assert.deepEqual(await claim(1_200), ["d1#1"]); // a's lease ended, but the queue is busy
      assert.deepEqual(await claim(1_500), ["a#2"]); // a second after the last sweep
      assert.deepEqual(await claim(1_600), ["d2#1"]);
      assert.deepEqual(await claim(1_700), []);
    }),
});
