import assert from "node:assert/strict";
import { at, job, type JobStoreCase, leases, t0, waitsAfresh } from "./job_store_case_helpers.ts";

/**
 * The cases of operators' writes: a tenant's reach, revival of a dead job, purge; run by
 * `jobStoreContract` on every store.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreOperatorContract(test: JobStoreCase): void {
  test("work for a tenant finds and cancels only that tenant's jobs and elevated ones", async (store) => {
    const j = job({ tenantId: "t1" });
    await store.jobInsert({ job: j });
    assert.equal(await store.jobFind({ id: j.id, reach: { tenantId: "t2" } }), undefined);
    assert.equal(await store.jobCancel({ id: j.id, reach: { tenantId: "t2" }, now: at(1) }), false);
    assert.equal((await store.jobFind({ id: j.id, reach: { tenantId: "t1" } }))?.id, j.id);
    assert.equal(
      (await store.jobFind({ id: j.id, reach: { tenantId: "t2", elevatedTenants: ["t1"] } }))?.id,
      j.id,
    );
    assert.equal((await store.jobFind({ id: j.id, reach: {} }))?.id, j.id);
    assert.ok(
      await store.jobCancel({
        id: j.id,
        reach: { tenantId: "t2", elevatedTenants: ["t1"] },
        now: at(2),
      }),
    );
  });

  test("an operator revives a dead job: waiting, due now, attempts back to zero", async (store) => {
    const j = job({ maxAttempts: 1 });
    await store.jobInsert({ job: j });
    const [c] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.equal(
      await store.jobRetryDead({ id: j.id, reach: {}, now: at(1) }),
      false,
      "not dead yet",
    );
    await store.jobFail({
      id: j.id,
      leaseToken: c!.leaseToken,
      now: at(2),
      errorCode: "X",
      errorMessage: "x",
    });
    assert.ok(await store.jobRetryDead({ id: j.id, reach: {}, now: at(5_000) }));
    await waitsAfresh(store, j.id, at(5_000));
  });

  test("purgeFinished deletes finished jobs before the instant, and frees their keys", async (store) => {
    const done = job({ idempotencyKey: "once" });
    const open = job();
    await store.jobInsert({ job: done });
    await store.jobInsert({ job: open });
    const [c] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.equal(c?.id, done.id);
    await store.jobComplete({ id: done.id, leaseToken: c!.leaseToken, now: at(100) });
    assert.equal(await store.jobPurgeFinished({ before: at(100) }), 0);
    assert.equal(await store.jobPurgeFinished({ before: at(101) }), 1);
    assert.deepEqual((await store.jobList()).map((j) => j.id), [open.id]);
    const reused = job({ idempotencyKey: "once" });
    assert.deepEqual(await store.jobInsert({ job: reused }), { id: reused.id });
  });
}
