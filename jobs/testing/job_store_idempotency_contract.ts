import assert from "node:assert/strict";
import { job, type JobStoreCase } from "./job_store_case_helpers.ts";

/**
 * The cases of idempotency keys: unique per name and tenant, duplicates inside units of work;
 * run by `jobStoreContract` on every store.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreIdempotencyContract(test: JobStoreCase): void {
  test("an idempotency key is unique per job name and tenant while the job is kept", async (store) => {
    const first = job({ idempotencyKey: "k", tenantId: "t1" });
    assert.deepEqual(await store.jobInsert({ job: first }), { id: first.id });
    const again = job({ idempotencyKey: "k", tenantId: "t1" });
    assert.deepEqual(await store.jobInsert({ job: again }), { id: first.id, duplicate: true });
    const otherTenant = job({ idempotencyKey: "k", tenantId: "t2" });
    assert.deepEqual(await store.jobInsert({ job: otherTenant }), { id: otherTenant.id });
    const noTenant = job({ idempotencyKey: "k" });
    assert.deepEqual(await store.jobInsert({ job: noTenant }), { id: noTenant.id });
    const noTenantAgain = job({ idempotencyKey: "k" });
    assert.deepEqual(await store.jobInsert({ job: noTenantAgain }), {
      id: noTenant.id,
      duplicate: true,
    });
    const otherName = job({
      idempotencyKey: "k",
      tenantId: "t1",
      name: "scheduling.send-reminder",
    });
    assert.deepEqual(await store.jobInsert({ job: otherName }), { id: otherName.id });
    assert.equal((await store.jobList()).length, 4);
  });

  test(
    "a kept idempotency key answers the kept id with duplicate: true, also inside a unit of work",
    async (store, transactions) => {
      const first = job({ idempotencyKey: "k", tenantId: "t1" });
      await store.jobInsert({ job: first });
      const fresh = job({ idempotencyKey: "fresh", tenantId: "t1" });
      const answered = await transactions.run(async (unit) => {
        const single = await store.jobInsert({
          job: job({ idempotencyKey: "k", tenantId: "t1" }),
          unit,
        });
        const many = store.jobInsertMany === undefined ? undefined : await store.jobInsertMany({
          jobs: [
            job({ idempotencyKey: "k", tenantId: "t1" }),
            fresh,
            job({
              idempotencyKey: "fresh",
              tenantId: "t1",
            }),
          ],
          unit,
        });
        return { single, many };
      });
      assert.deepEqual(answered.single, { id: first.id, duplicate: true });
      if (answered.many !== undefined) {
        assert.deepEqual(answered.many, [
          { id: first.id, duplicate: true },
          { id: fresh.id },
          { id: fresh.id, duplicate: true },
        ]);
        assert.equal((await store.jobFind({ id: fresh.id, reach: {} }))?.status, "waiting");
      }
      assert.equal((await store.jobFind({ id: first.id, reach: {} }))?.status, "waiting");
      assert.deepEqual(
        (await store.jobList()).map((j) => j.id).sort(),
        answered.many === undefined ? [first.id] : [first.id, fresh.id].sort(),
      );
    },
  );

  test(
    "jobInsertMany of one job (a lone enqueue) inserts it, or answers a kept key's id as a duplicate",
    async (store, transactions) => {
      if (store.jobInsertMany === undefined) return;
      const insertMany = store.jobInsertMany.bind(store);
      const first = job({ idempotencyKey: "lone", tenantId: "t1" });
      assert.deepEqual(await insertMany({ jobs: [first] }), [{ id: first.id }]);
      const plain = job();
      assert.deepEqual(await insertMany({ jobs: [plain] }), [{ id: plain.id }]);
      const again = await transactions.run((unit) =>
        insertMany({ jobs: [job({ idempotencyKey: "lone", tenantId: "t1" })], unit })
      );
      assert.deepEqual(again, [{ id: first.id, duplicate: true }]);
      assert.deepEqual(
        (await store.jobList()).map((j) => j.id).sort(),
        [first.id, plain.id].sort(),
      );
    },
  );

  test(
    "a job inserted in a unit of work that rolls back is never kept",
    async (store, transactions) => {
      const j = job({ idempotencyKey: "rolled-back" });
      await assert.rejects(() =>
        transactions.run(async (unit) => {
          assert.deepEqual(await store.jobInsert({ job: j, unit }), { id: j.id });
          throw new Error("the command failed");
        }), /the command failed/);
      assert.equal(await store.jobFind({ id: j.id, reach: {} }), undefined);
      assert.deepEqual(await store.jobList(), []);
      const again = job({ idempotencyKey: "rolled-back" });
      assert.deepEqual(await store.jobInsert({ job: again }), { id: again.id }, "the key is free");
    },
  );

  test(
    "two jobs of one key staged before either committed each answer their own id; the first committed is kept",
    async (store, transactions) => {
      // A store sharing the transaction makes the second insert wait for the first one's commit.
      if (store.sharesTransaction) return;
      const a = job({ idempotencyKey: "race" });
      const b = job({ idempotencyKey: "race" });
      let commitA!: () => void;
      const mayCommitA = new Promise<void>((resolve) => (commitA = resolve));
      let answeredA: unknown;
      const unitA = transactions.run(async (unit) => {
        answeredA = await store.jobInsert({ job: a, unit });
        await mayCommitA;
      });
      // A's insert may go over the network (a store staging in its own round trip): waited for,
      // up to 10 s.
      for (
        const deadline = Date.now() + 10_000;
        answeredA === undefined && Date.now() < deadline;
      ) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      assert.deepEqual(answeredA, { id: a.id });
      const answeredB = await transactions.run((unit) => store.jobInsert({ job: b, unit }));
      assert.deepEqual(answeredB, { id: b.id });
      commitA();
      await unitA;
      assert.deepEqual((await store.jobList()).map((j) => j.id), [b.id]);
      assert.equal(await store.jobFind({ id: a.id, reach: {} }), undefined);
    },
  );
}
