import assert from "node:assert/strict";
import { at, job, type JobStoreCase, leases, t0 } from "./job_store_case_helpers.ts";

/**
 * The cases of a job's life: insert, claim, run, retry and death, one by one and many at once;
 * run by `jobStoreContract` on every store.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreLifecycleContract(test: JobStoreCase): void {
  test("an inserted job is waiting, found without its payload, listed with it", async (store) => {
    const j = job({ subject: "c1", tenantId: "t1" });
    assert.deepEqual(await store.jobInsert({ job: j }), { id: j.id });
    const found = await store.jobFind({ id: j.id, reach: {} });
    assert.deepEqual(found, {
      id: j.id,
      name: j.name,
      status: "waiting",
      attempts: 0,
      progress: { done: 0 },
      runAt: t0,
      tenantId: "t1",
      subject: "c1",
    });
    assert.equal("payload" in (found as object), false);
    const [listed] = await store.jobList();
    assert.deepEqual(listed?.payload, j.payload);
    assert.deepEqual(listed?.actor, j.actor);
    assert.equal(
      await store.jobFind({ id: "01900000-0000-7000-8000-000000000000", reach: {} }),
      undefined,
    );
  });

  test("claim takes due jobs of its queue only, earliest due first, up to the limit", async (store) => {
    const late = job({ runAt: at(500) });
    const early = job({ runAt: at(100) });
    const future = job({ runAt: at(10_000) });
    const other = job({ name: "billing.send-invoice", queue: "billing" });
    for (const j of [late, early, future, other]) await store.jobInsert({ job: j });
    const first = await store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: at(1_000),
      ...leases,
    });
    assert.deepEqual(first.map((c) => c.id), [early.id]);
    assert.equal(first[0]!.attempt, 1);
    assert.equal(first[0]!.status, "running");
    const rest = await store.jobClaim({
      queue: "scheduling",
      limit: 10,
      now: at(1_000),
      ...leases,
    });
    assert.deepEqual(rest.map((c) => c.id), [late.id]);
    assert.equal((await store.jobFind({ id: late.id, reach: {} }))?.status, "running");
    assert.equal((await store.jobFind({ id: late.id, reach: {} }))?.attempts, 1);
  });

  test("a run that finishes while its attempt holds the job makes it succeeded", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [claimed] = await store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: t0,
      ...leases,
    });
    assert.equal(
      await store.jobComplete({ id: j.id, leaseToken: "not-the-token", now: at(10) }),
      false,
    );
    assert.equal(
      await store.jobComplete({ id: j.id, leaseToken: claimed!.leaseToken, now: at(10) }),
      true,
    );
    assert.equal((await store.jobFind({ id: j.id, reach: {} }))?.status, "succeeded");
    assert.equal(
      await store.jobComplete({ id: j.id, leaseToken: claimed!.leaseToken, now: at(20) }),
      false,
    );
  });

  test("inserting many at once keeps each job once per idempotency key, in order", async (store) => {
    if (store.jobInsertMany === undefined) return;
    const before = job({ idempotencyKey: "kept" });
    await store.jobInsert({ job: before });
    const a = job();
    const b = job({ idempotencyKey: "kept" });
    const c = job({ idempotencyKey: "fresh" });
    const d = job({ idempotencyKey: "fresh" });
    assert.deepEqual(await store.jobInsertMany({ jobs: [a, b, c, d] }), [
      { id: a.id },
      { id: before.id, duplicate: true },
      { id: c.id },
      { id: c.id, duplicate: true },
    ]);
    assert.equal((await store.jobList()).length, 3);
  });

  test("inserting 10,000 jobs in one call keeps every one (no argument or parameter limit)", async (store) => {
    if (store.jobInsertMany === undefined) return;
    const jobs = Array.from(
      { length: 10_000 },
      (_, n) => job({ id: crypto.randomUUID(), payload: { n }, idempotencyKey: `bulk-${n}` }),
    );
    const results = await store.jobInsertMany({ jobs });
    assert.equal(results.length, jobs.length);
    assert.ok(results.every((result, i) => result.id === jobs[i]!.id && !result.duplicate));
    const [counts] = await store.jobCounts({ reach: {} });
    assert.equal(counts?.waiting, 10_000);
  });

  test("completing many at once answers, in order, which attempts still held their job", async (store) => {
    if (store.jobCompleteMany === undefined) return;
    const a = job();
    const b = job();
    await store.jobInsert({ job: a });
    await store.jobInsert({ job: b });
    const claimed = await store.jobClaim({ queue: "scheduling", limit: 2, now: t0, ...leases });
    const [first, second] = [
      claimed.find((c) => c.id === a.id)!,
      claimed.find((c) => c.id === b.id)!,
    ];
    assert.deepEqual(
      await store.jobCompleteMany({
        jobs: [{ id: a.id, leaseToken: first.leaseToken }, { id: b.id, leaseToken: "stale" }],
        now: at(10),
      }),
      [true, false],
    );
    assert.equal((await store.jobFind({ id: a.id, reach: {} }))?.status, "succeeded");
    assert.equal((await store.jobFind({ id: b.id, reach: {} }))?.status, "running");
    void second;
  });

  test("a failed attempt below maxAttempts waits for its backoff, error code kept", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [c1] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    assert.ok(
      await store.jobFail({
        id: j.id,
        leaseToken: c1!.leaseToken,
        now: at(10),
        errorCode: "SLOT_TAKEN",
        errorMessage: "taken",
        retryAt: at(2_010),
      }),
    );
    const waiting = await store.jobFind({ id: j.id, reach: {} });
    assert.equal(waiting?.status, "waiting");
    assert.equal(waiting?.lastErrorCode, "SLOT_TAKEN");
    assert.deepEqual(waiting?.runAt, at(2_010));
    assert.deepEqual((await store.jobView({ id: j.id, reach: {} }))?.lastErrorAt, at(10));
    assert.deepEqual(
      await store.jobClaim({ queue: "scheduling", limit: 1, now: at(2_000), ...leases }),
      [],
    );
    const [c2] = await store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: at(2_010),
      ...leases,
    });
    assert.equal(c2?.attempt, 2);
    assert.notEqual(c2?.leaseToken, c1?.leaseToken);
    await store.jobComplete({ id: j.id, leaseToken: c2!.leaseToken, now: at(2_020) });
    const succeeded = await store.jobView({ id: j.id, reach: {} });
    assert.equal(succeeded?.lastErrorCode, "SLOT_TAKEN");
    assert.deepEqual(succeeded?.lastErrorAt, at(10), "the time of the last failure is kept");
  });

  test("a failed attempt without a retry makes the job dead", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [c] = await store.jobClaim({ queue: "scheduling", limit: 1, now: t0, ...leases });
    await store.jobFail({
      id: j.id,
      leaseToken: c!.leaseToken,
      now: at(5),
      errorCode: "UNEXPECTED",
      errorMessage: "x",
    });
    const dead = await store.jobFind({ id: j.id, reach: {} });
    assert.equal(dead?.status, "dead");
    assert.equal(dead?.lastErrorCode, "UNEXPECTED");
    assert.deepEqual((await store.jobView({ id: j.id, reach: {} }))?.lastErrorAt, at(5));
    assert.deepEqual(
      await store.jobClaim({ queue: "scheduling", limit: 1, now: at(100_000), ...leases }),
      [],
    );
  });
}
