import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import type { JobStore, NewJob } from "../store/job_store.ts";
import type { JobStoreCase } from "./job_store_case_helpers.ts";

const t0 = new Date("2026-05-01T10:00:00.000Z");
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const leases = { leases: {}, defaultLeaseMs: 1_000 } as const;

function job(overrides: Partial<NewJob> = {}): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "scheduling.send-reminder",
    queue: "scheduling",
    payload: {},
    actor: userActor("u1"),
    correlationId: "corr-1",
    maxAttempts: 3,
    runAt: t0,
    createdAt: t0,
    ...overrides,
  };
}

/** The store's registry and rescue, which every built-in store implements. */
function registry(store: JobStore): Required<
  Pick<JobStore, "workerHeartbeat" | "workerDeregister" | "workerList" | "jobRescue">
> {
  const { workerHeartbeat, workerDeregister, workerList, jobRescue } = store;
  assert.ok(
    workerHeartbeat && workerDeregister && workerList && jobRescue,
    "the store keeps no registry of workers or cannot rescue",
  );
  return {
    workerHeartbeat: workerHeartbeat.bind(store),
    workerDeregister: workerDeregister.bind(store),
    workerList: workerList.bind(store),
    jobRescue: jobRescue.bind(store),
  };
}

/**
 * The cases of the registry of live workers and of the rescue of ended leases, run by
 * `jobStoreContract`.
 *
 * @param test Declares a case on a fresh store.
 */
export function jobStoreWorkersContract(test: JobStoreCase): void {
  test("a worker is live from its heartbeat until its ttl, refreshed by the next, gone when deregistered", async (store) => {
    const r = registry(store);
    const a = { id: "w-a", host: "h1", pid: 41, queues: ["mail", "billing"], startedAt: t0 };
    const b = { id: "w-b", queues: ["mail"], startedAt: at(5) };
    await r.workerHeartbeat({ worker: a, now: at(10), ttlMs: 1_000 });
    await r.workerHeartbeat({ worker: b, now: at(10), ttlMs: 1_000 });
    assert.deepEqual(await r.workerList({ now: at(500) }), [
      { ...a, queues: ["billing", "mail"], heartbeatAt: at(10), expiresAt: at(1_010) },
      { ...b, heartbeatAt: at(10), expiresAt: at(1_010) },
    ]);
    await r.workerHeartbeat({ worker: a, now: at(900), ttlMs: 1_000 });
    const later = await r.workerList({ now: at(1_010) });
    assert.deepEqual(later.map((w) => [w.id, w.heartbeatAt.getTime() - t0.getTime()]), [
      ["w-a", 900],
    ]);
    await r.workerDeregister({ id: "w-a" });
    await r.workerDeregister({ id: "w-unknown" });
    assert.deepEqual(await r.workerList({ now: at(1_000) }), [
      { ...b, heartbeatAt: at(10), expiresAt: at(1_010) },
    ]);
  });

  test("a heartbeat with an empty id or a ttl below 1 ms is refused", async (store) => {
    const r = registry(store);
    const worker = { id: "", queues: [], startedAt: t0 };
    await assert.rejects(r.workerHeartbeat({ worker, now: t0, ttlMs: 1_000 }), RangeError);
    const named = { ...worker, id: "w" };
    await assert.rejects(r.workerHeartbeat({ worker: named, now: t0, ttlMs: 0 }), RangeError);
  });

  test("a claim keeps the claiming worker's id with the job", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [claimed] = await store.jobClaim({
      queue: j.queue,
      limit: 1,
      now: at(1),
      ...leases,
      workerId: "w-a",
    });
    assert.equal(claimed?.workerId, "w-a");
    assert.equal((await store.jobView({ id: j.id, reach: {} }))?.workerId, "w-a");
    assert.equal((await store.jobList())[0]?.workerId, "w-a");
  });

  test("a rescue returns jobs whose lease ended to waiting, of every queue, and leaves the others", async (store) => {
    const r = registry(store);
    const mail = job({ queue: "mail", name: "mail.send" });
    const held = job();
    const waiting = job({ runAt: at(100_000) });
    for (const j of [mail, held, waiting]) await store.jobInsert({ job: j });
    const [m] = await store.jobClaim({ queue: "mail", limit: 1, now: at(0), ...leases });
    const [h] = await store.jobClaim({
      queue: "scheduling",
      limit: 1,
      now: at(0),
      leases: {},
      defaultLeaseMs: 5_000,
    });
    assert.equal(h?.id, held.id);
    assert.deepEqual(await r.jobRescue({ now: at(999), limit: 10 }), []);
    assert.deepEqual(await r.jobRescue({ now: at(1_000), limit: 10 }), [
      { id: mail.id, queue: "mail", outcome: "waiting" },
    ]);
    const rescued = await store.jobView({ id: mail.id, reach: {} });
    assert.equal(rescued?.status, "waiting");
    assert.equal(rescued?.attempts, 1);
    assert.deepEqual(rescued?.runAt, mail.runAt);
    assert.deepEqual(
      rescued?.attemptHistory?.map((a) => [a.attempt, a.outcome, a.endedAt.getTime()]),
      [[1, "expired", at(1_000).getTime()]],
    );
    assert.equal(
      await store.jobReport({ id: mail.id, leaseToken: m!.leaseToken, now: at(1_001), leaseMs: 1 }),
      "stale",
    );
    assert.equal(
      await store.jobComplete({ id: mail.id, leaseToken: m!.leaseToken, now: at(1) }),
      false,
    );
    const [again] = await store.jobClaim({ queue: "mail", limit: 1, now: at(1_002), ...leases });
    assert.equal(again?.id, mail.id);
    assert.equal(again?.attempt, 2);
    assert.equal(again?.leaseEnded, undefined, "the rescuer took the ended lease back already");
    assert.equal((await store.jobFind({ id: held.id, reach: {} }))?.status, "running");
    assert.equal((await store.jobFind({ id: waiting.id, reach: {} }))?.status, "waiting");
  });

  test("a claim that takes a job over from an ended lease says so; a claim of a waiting job does not", async (store) => {
    const j = job();
    await store.jobInsert({ job: j });
    const [first] = await store.jobClaim({ queue: j.queue, limit: 1, now: at(0), ...leases });
    assert.equal(first?.leaseEnded, undefined);
    const [taken] = await store.jobClaim({ queue: j.queue, limit: 1, now: at(1_000), ...leases });
    assert.equal(taken?.id, j.id);
    assert.equal(taken?.leaseEnded, true);
    assert.equal(taken?.attempt, 2);
  });

  test("a rescue ends a job whose last attempt's lease ended: dead with ATTEMPTS_EXHAUSTED", async (store) => {
    const r = registry(store);
    const j = job({ maxAttempts: 1 });
    await store.jobInsert({ job: j });
    await store.jobClaim({ queue: j.queue, limit: 1, now: at(0), ...leases });
    assert.deepEqual(await r.jobRescue({ now: at(1_500), limit: 10 }), [
      { id: j.id, queue: j.queue, outcome: "dead" },
    ]);
    const dead = await store.jobView({ id: j.id, reach: {} });
    assert.equal(dead?.status, "dead");
    assert.equal(dead?.lastErrorCode, "ATTEMPTS_EXHAUSTED");
    assert.deepEqual(dead?.finishedAt, at(1_500));
    assert.deepEqual(dead?.attemptHistory?.map((a) => [a.attempt, a.outcome, a.errorCode]), [
      [1, "dead", "ATTEMPTS_EXHAUSTED"],
    ]);
    assert.deepEqual(
      await store.jobClaim({ queue: j.queue, limit: 1, now: at(2_000), ...leases }),
      [],
    );
  });

  test("a rescue takes at most its limit, oldest lease first; rescues at once take each job once", async (store) => {
    const r = registry(store);
    const jobs = Array.from({ length: 6 }, (_, i) => job({ runAt: at(i) }));
    for (const j of jobs) await store.jobInsert({ job: j });
    for (let i = 0; i < jobs.length; i++) {
      await store.jobClaim({ queue: "scheduling", limit: 1, now: at(i), ...leases });
    }
    const first = await r.jobRescue({ now: at(10_000), limit: 2 });
    assert.deepEqual(first.map((j) => j.id), [jobs[0]!.id, jobs[1]!.id]);
    const [one, two] = await Promise.all([
      r.jobRescue({ now: at(10_000), limit: 10 }),
      r.jobRescue({ now: at(10_000), limit: 10 }),
    ]);
    const ids = [...one!, ...two!].map((j) => j.id).sort();
    assert.deepEqual(ids, jobs.slice(2).map((j) => j.id).sort());
    const waiting = await store.jobList({ status: "waiting" });
    assert.equal(waiting.length, jobs.length);
  });
}
