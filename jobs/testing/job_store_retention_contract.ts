import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import type { JobStore, NewJob } from "../store/job_store.ts";
import type { FinishedJobStatus, JobPruneParams } from "../store/job_retention.ts";
import type { JobStoreCase } from "./job_store_case_helpers.ts";

const t0 = new Date("2026-05-01T10:00:00.000Z");
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const leases = { leases: {}, defaultLeaseMs: 60_000 } as const;

function job(overrides: Partial<NewJob> = {}): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "mail.send",
    queue: "mail",
    payload: {},
    actor: userActor("u1"),
    correlationId: "corr-1",
    maxAttempts: 1,
    runAt: t0,
    createdAt: t0,
    ...overrides,
  };
}

/** The store's prune, which every built-in store implements. */
function pruneOf(store: JobStore): (params: JobPruneParams) => Promise<number> {
  assert.ok(store.jobPrune, "the store cannot prune");
  return store.jobPrune.bind(store);
}

/**
 * Inserts a job and finishes it at `finishedAt` (ms from t0) in the status: succeeded (completed),
 * dead (its only attempt failed) or cancelled (while waiting).
 */
async function finished(
  store: JobStore,
  status: FinishedJobStatus,
  finishedAt: number,
  overrides: Partial<NewJob> = {},
): Promise<NewJob> {
  const j = job(overrides);
  await store.jobInsert({ job: j });
  if (status === "cancelled") {
    assert.ok(await store.jobCancel({ id: j.id, reach: {}, now: at(finishedAt) }));
    return j;
  }
  const [claimed] = await store.jobClaim({
    queue: j.queue,
    limit: 1,
    now: at(finishedAt),
    ...leases,
  });
  assert.equal(claimed?.id, j.id);
  const now = at(finishedAt);
  const ok = status === "succeeded"
    ? await store.jobComplete({ id: j.id, leaseToken: claimed.leaseToken, now })
    : await store.jobFail({
      id: j.id,
      leaseToken: claimed.leaseToken,
      now,
      errorCode: "BOOM",
      errorMessage: "it broke",
    });
  assert.ok(ok);
  return j;
}

/** The ids of the jobs kept, sorted. */
async function keptIds(store: JobStore): Promise<string[]> {
  return (await store.jobList()).map((j) => j.id).sort();
}

/**
 * The cases of retention (`jobPrune`), run by `jobStoreContract`: by age and by count, one queue
 * and status at a time, bounded, never a waiting or running job, safe from many pruners at once.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreRetentionContract(test: JobStoreCase): void {
  test("a prune removes the queue's jobs of the status finished before the instant, oldest first, a batch at a time", async (store) => {
    const prune = pruneOf(store);
    const done = [];
    for (const ms of [10, 20, 30, 40]) done.push(await finished(store, "succeeded", ms));
    const dead = await finished(store, "dead", 5);
    const cancelled = await finished(store, "cancelled", 5);
    const otherQueue = await finished(store, "succeeded", 5, {
      queue: "billing",
      name: "billing.x",
    });
    const waiting = job({ runAt: at(1_000_000) });
    const running = job({ createdAt: at(1) });
    await store.jobInsert({ job: waiting });
    await store.jobInsert({ job: running });
    const [held] = await store.jobClaim({ queue: "mail", limit: 1, now: at(50), ...leases });
    assert.equal(held?.id, running.id);
    const params = {
      queue: "mail",
      status: "succeeded",
      finishedBefore: at(35),
      limit: 2,
    } as const;
    assert.equal(await prune(params), 2);
    assert.equal(await store.jobFind({ id: done[0]!.id, reach: {} }), undefined);
    assert.equal(await store.jobFind({ id: done[1]!.id, reach: {} }), undefined);
    assert.equal(await prune(params), 1);
    assert.equal(await prune(params), 0);
    assert.deepEqual(
      await keptIds(store),
      [done[3]!, dead, cancelled, otherQueue, waiting, running].map((j) => j.id).sort(),
    );
    assert.equal((await store.jobFind({ id: running.id, reach: {} }))?.status, "running");
    assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "waiting");
  });

  test("a prune by age never removes a waiting or running job, however old", async (store) => {
    const prune = pruneOf(store);
    const waiting = job({ createdAt: at(-1_000_000), runAt: at(1_000_000) });
    const running = job({ createdAt: at(-1_000_000) });
    await store.jobInsert({ job: waiting });
    await store.jobInsert({ job: running });
    await store.jobClaim({ queue: "mail", limit: 1, now: at(0), ...leases });
    for (const status of ["succeeded", "cancelled", "dead"] as const) {
      assert.equal(
        await prune({ queue: "mail", status, finishedBefore: at(10_000_000), keep: 0, limit: 100 }),
        0,
      );
    }
    assert.deepEqual(await keptIds(store), [waiting.id, running.id].sort());
  });

  test("each status is pruned by its own rule: dead and cancelled jobs stay while succeeded ones go", async (store) => {
    const prune = pruneOf(store);
    const succeeded = await finished(store, "succeeded", 10);
    const dead = await finished(store, "dead", 10);
    const cancelled = await finished(store, "cancelled", 10);
    assert.equal(
      await prune({ queue: "mail", status: "succeeded", finishedBefore: at(100), limit: 10 }),
      1,
    );
    assert.equal(await store.jobFind({ id: succeeded.id, reach: {} }), undefined);
    assert.equal(
      await prune({ queue: "mail", status: "dead", finishedBefore: at(10), limit: 10 }),
      0,
    );
    assert.deepEqual(await keptIds(store), [dead.id, cancelled.id].sort());
    assert.equal(
      await prune({ queue: "mail", status: "dead", finishedBefore: at(11), limit: 10 }),
      1,
    );
    assert.deepEqual(await keptIds(store), [cancelled.id]);
    assert.equal(
      await prune({ queue: "mail", status: "cancelled", finishedBefore: at(11), limit: 10 }),
      1,
    );
    assert.deepEqual(await keptIds(store), []);
  });

  test("a prune by count keeps the queue's jobs of the status that finished last, whatever their age", async (store) => {
    const prune = pruneOf(store);
    const done = [];
    for (const ms of [50, 10, 40, 20, 30]) done.push(await finished(store, "succeeded", ms));
    const other = [];
    for (const ms of [1, 2, 3]) {
      other.push(await finished(store, "succeeded", ms, { queue: "billing", name: "billing.x" }));
    }
    const dead = await finished(store, "dead", 1);
    assert.equal(await prune({ queue: "mail", status: "succeeded", keep: 2, limit: 2 }), 2);
    assert.equal(await prune({ queue: "mail", status: "succeeded", keep: 2, limit: 10 }), 1);
    assert.equal(await prune({ queue: "mail", status: "succeeded", keep: 2, limit: 10 }), 0);
    assert.deepEqual(
      await keptIds(store),
      [done[0]!, done[2]!, ...other, dead].map((j) => j.id).sort(),
    );
    assert.equal(await prune({ queue: "mail", status: "succeeded", keep: 0, limit: 10 }), 2);
    assert.deepEqual(await keptIds(store), [...other, dead].map((j) => j.id).sort());
  });

  test("a prune by age and count removes the union, the limit counting both", async (store) => {
    const prune = pruneOf(store);
    const done = [];
    for (const ms of [10, 20, 30, 40, 50, 60]) done.push(await finished(store, "succeeded", ms));
    const params = { queue: "mail", status: "succeeded", finishedBefore: at(25), keep: 3 } as const;
    assert.equal(await prune({ ...params, limit: 1 }), 1);
    assert.equal(await prune({ ...params, limit: 10 }), 2);
    assert.deepEqual(await keptIds(store), done.slice(3).map((j) => j.id).sort());
  });

  test("a pruned job's attempt history and idempotency key go with it", async (store) => {
    const prune = pruneOf(store);
    const dead = await finished(store, "dead", 10, { idempotencyKey: "k1", tenantId: "t1" });
    assert.equal((await store.jobView({ id: dead.id, reach: {} }))?.attemptHistory?.length, 1);
    assert.equal(
      await prune({ queue: "mail", status: "dead", finishedBefore: at(11), limit: 10 }),
      1,
    );
    assert.equal(await store.jobView({ id: dead.id, reach: {} }), undefined);
    const again = job({ idempotencyKey: "k1", tenantId: "t1" });
    assert.deepEqual(await store.jobInsert({ job: again }), { id: again.id });
  });

  test("a dead job revived before the prune is not pruned, nor counted against the dead", async (store) => {
    const prune = pruneOf(store);
    const revived = await finished(store, "dead", 10);
    const dead = await finished(store, "dead", 20);
    assert.ok(await store.jobRetryDead({ id: revived.id, reach: {}, now: at(30) }));
    assert.equal(
      await prune({ queue: "mail", status: "dead", finishedBefore: at(100), keep: 1, limit: 10 }),
      1,
    );
    assert.equal(await store.jobFind({ id: dead.id, reach: {} }), undefined);
    assert.equal((await store.jobFind({ id: revived.id, reach: {} }))?.status, "waiting");
    const purged = await finished(store, "succeeded", 40);
    const last = await finished(store, "succeeded", 50, { createdAt: at(1) });
    assert.equal(await store.jobPurgeFinished({ before: at(45) }), 1);
    assert.equal(await store.jobFind({ id: purged.id, reach: {} }), undefined);
    assert.equal(await prune({ queue: "mail", status: "succeeded", keep: 1, limit: 10 }), 0);
    assert.equal((await store.jobFind({ id: last.id, reach: {} }))?.status, "succeeded");
  });

  test("tenants' jobs are pruned by the queue's rule alike: an old job of each goes, a recent job of each stays", async (store) => {
    const prune = pruneOf(store);
    await finished(store, "succeeded", 10, { tenantId: "a" });
    await finished(store, "succeeded", 10, { tenantId: "b" });
    const recentA = await finished(store, "succeeded", 100, { tenantId: "a" });
    const recentB = await finished(store, "succeeded", 100, { tenantId: "b" });
    const recentNone = await finished(store, "succeeded", 100);
    assert.equal(
      await prune({ queue: "mail", status: "succeeded", finishedBefore: at(50), limit: 10 }),
      2,
    );
    assert.deepEqual(
      await keptIds(store),
      [recentA, recentB, recentNone].map((j) => j.id).sort(),
    );
    assert.deepEqual(
      (await store.jobCounts({ reach: { tenantId: "b" } })).map((c) => [c.queue, c.succeeded]),
      [["mail", 1]],
    );
  });

  test("two pruners at once remove each job once, by age and by count, with no error", async (store) => {
    const prune = pruneOf(store);
    const jobs = [];
    for (let i = 0; i < 30; i++) jobs.push(job({ createdAt: at(i) }));
    if (store.jobInsertMany) await store.jobInsertMany({ jobs });
    else for (const j of jobs) await store.jobInsert({ job: j });
    const claimed = await store.jobClaim({ queue: "mail", limit: 30, now: at(0), ...leases });
    assert.equal(claimed.length, 30);
    for (const [i, c] of claimed.entries()) {
      assert.ok(await store.jobComplete({ id: c.id, leaseToken: c.leaseToken, now: at(100 + i) }));
    }
    const byAge = {
      queue: "mail",
      status: "succeeded",
      finishedBefore: at(110),
      limit: 7,
    } as const;
    const [a, b] = await Promise.all([prune(byAge), prune(byAge)]);
    assert.equal(a + b, 10, `the two pruners removed ${a} and ${b}`);
    assert.equal(await prune(byAge), 0);
    const byCount = { queue: "mail", status: "succeeded", keep: 5, limit: 9 } as const;
    const [c, d] = await Promise.all([prune(byCount), prune(byCount)]);
    assert.equal(await prune(byCount) + c + d, 15);
    const kept = await store.jobList({ status: "succeeded" });
    assert.deepEqual(
      kept.map((j) => j.id).sort(),
      claimed.slice(25).map((j) => j.id).sort(),
    );
  });

  test("a prune with bad params is refused, naming what is wrong", async (store) => {
    const prune = pruneOf(store);
    const base = { queue: "mail", status: "succeeded", finishedBefore: at(0), limit: 10 } as const;
    await assert.rejects(prune({ ...base, limit: 0 }), RangeError);
    await assert.rejects(prune({ ...base, limit: 10_001 }), RangeError);
    await assert.rejects(prune({ ...base, keep: -1 }), /keep must be a whole number/);
    await assert.rejects(
      prune({ ...base, status: "running" as FinishedJobStatus }),
      /succeeded, cancelled or dead/,
    );
    await assert.rejects(
      prune({ queue: "mail", status: "dead", limit: 1 }),
      /finishedBefore, keep/,
    );
    await assert.rejects(prune({ ...base, queue: "" }), /names the queue/);
  });
}
