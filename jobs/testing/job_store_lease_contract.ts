import assert from "node:assert/strict";
import {
  at,
  job,
  type JobStoreCase,
  leases,
  refusesStale,
  t0,
  waitsAfresh,
} from "./job_store_case_helpers.ts";

/**
 * The cases of leases: an ended lease, reports that extend it, release and cancellation;
 * run by `jobStoreContract` on every store.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreLeaseContract(test: JobStoreCase): void {
  test("an ended lease lets another worker claim the job, one attempt more; the old attempt is stale", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [c1] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.deepEqual(
      await store.jobClaim({ queue: "scheduling", limit: 1, now: at(999), ...leases }),
      [],
    );
    const [c2] = await store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: at(1_000),
      ...leases,
    });
    assert.equal(c2?.id, j.id);
    assert.equal(c2?.attempt, 2);
    await refusesStale(store, j.id, c1!.leaseToken, at(1_001));
    assert.equal(
      await store.jobReport({
        id: j.id,
        leaseToken: c2!.leaseToken,
        now: at(1_003),
        leaseMs: 1_000,
      }),
      "ok",
    );
  });

  test("an ended lease on the last attempt makes the job dead with ATTEMPTS_EXHAUSTED", async (store) => {
    const j = job({ maxAttempts: 1 });
    await store.jobInsert({ job: j });
    await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.deepEqual(
      await store.jobClaim({ queue: "scheduling", limit: 1, now: at(1_000), ...leases }),
      [],
    );
    const dead = await store.jobFind({ id: j.id, reach: {} });
    assert.equal(dead?.status, "dead");
    assert.equal(dead?.lastErrorCode, "ATTEMPTS_EXHAUSTED");
    assert.equal(dead?.attempts, 1);
    const view = await store.jobView({ id: j.id, reach: {} });
    assert.deepEqual(view?.lastErrorAt, at(1_000), "the failure is when the lease ended was seen");
  });

  test("a report extends the lease and keeps progress and the checkpoint for the next attempt", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [c1] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.equal(
      await store.jobReport({
        id: j.id,
        leaseToken: c1!.leaseToken,
        now: at(900),
        leaseMs: 1_000,
        progress: { done: 2, total: 5 },
        checkpoint: { next: 2 },
      }),
      "ok",
    );
    assert.deepEqual(
      await store.jobClaim({ queue: "scheduling", limit: 1, now: at(1_500), ...leases }),
      [],
    );
    assert.deepEqual((await store.jobFind({ id: j.id, reach: {} }))?.progress, {
      done: 2,
      total: 5,
    });
    const [c2] = await store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: at(1_900),
      ...leases,
    });
    assert.equal(c2?.attempt, 2);
    assert.deepEqual(c2?.checkpoint, { next: 2 });
  });

  test("a released job is waiting again, its attempt not counted", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [c] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.ok(await store.jobRelease({ id: j.id, leaseToken: c!.leaseToken, now: at(1) }));
    await waitsAfresh(store, j.id, at(2));
  });

  test("cancel ends a waiting job; a running one learns it at its next report", async (store) => {
    const waiting = job();
    const running = job();
    await store.jobInsert({ job: running });
    const [c] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    await store.jobInsert({ job: waiting });
    assert.ok(await store.jobCancel({ id: waiting.id, reach: {}, now: at(1) }));
    assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "cancelled");
    assert.ok(await store.jobCancel({ id: running.id, reach: {}, now: at(2) }));
    await refusesStale(store, running.id, c!.leaseToken, at(3));
    assert.equal((await store.jobFind({ id: running.id, reach: {} }))?.status, "cancelled");
    assert.deepEqual(
      await store.jobClaim({ queue: "scheduling", limit: 5, now: at(10_000), ...leases }),
      [],
    );
    assert.equal(await store.jobCancel({ id: waiting.id, reach: {}, now: at(5) }), false);
  });
}
