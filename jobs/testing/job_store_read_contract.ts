import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import type { JobStore, NewJob, TenantReach } from "../store/job_store.ts";
import { InvalidJobCursorError, jobPageMaxLimit, type JobPageParams } from "../store/job_reads.ts";
import type { JobStoreCase } from "./job_store_case_helpers.ts";

const t0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const leases = { leases: {}, defaultLeaseMs: 1_000 } as const;
let sequence = 0;

function job(overrides: Partial<NewJob> = {}): NewJob {
  sequence += 1;
  return {
    id: `0191${String(sequence).padStart(4, "0")}-0000-7000-8000-${crypto.randomUUID().slice(-12)}`,
    name: "scheduling.clear-calendar",
    queue: "scheduling",
    payload: { calendarId: "c1" },
    actor: userActor("u1", { roles: ["practitioner"] }),
    correlationId: "corr-1",
    maxAttempts: 1,
    runAt: t0,
    createdAt: t0,
    ...overrides,
  };
}

async function allPages(
  store: JobStore,
  params: Omit<JobPageParams, "after">,
  between: () => Promise<void> = () => Promise.resolve(),
): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await store.jobPage({ ...params, ...(after ? { after } : {}) });
    ids.push(...page.jobs.map((j) => j.id));
    if (page.next === undefined) return ids;
    after = page.next;
    await between();
  }
  throw new Error("The pages never ended");
}

/** Runs the job to its end: succeeded, or dead with the error code. */
async function finish(store: JobStore, j: NewJob, errorCode?: string): Promise<void> {
  const [claimed] = await store.jobClaim({ queue: j.queue, limit: 1, now: at(100_000), ...leases });
  assert.equal(claimed?.id, j.id);
  if (errorCode === undefined) {
    await store.jobComplete({ id: j.id, leaseToken: claimed!.leaseToken, now: at(100_001) });
  } else {
    await store.jobFail({
      id: j.id,
      leaseToken: claimed!.leaseToken,
      now: at(100_001),
      errorCode,
      errorMessage: "failed",
    });
  }
}

/**
 * The cases of the operators' reads (`jobCounts`, `jobPage`, `jobView`), run by
 * `jobStoreContract` on every store.
 */
export function jobStoreReadContract(test: JobStoreCase): void {
  test("counts answer each queue's jobs by status, of the reach only", async (store) => {
    const waiting = job();
    const dead = job();
    const succeeded = job();
    for (const j of [succeeded, dead]) {
      await store.jobInsert({ job: j });
      await finish(store, j, j === dead ? "BOOM" : undefined);
    }
    await store.jobInsert({ job: waiting });
    const cancelled = job({ queue: "billing", name: "billing.send-invoice" });
    await store.jobInsert({ job: cancelled });
    await store.jobCancel({ id: cancelled.id, reach: {}, now: at(5) });
    await store.jobInsert({ job: job({ queue: "billing", name: "billing.x", tenantId: "t1" }) });
    await store.jobInsert({ job: job({ queue: "billing", name: "billing.x", tenantId: "t2" }) });
    const zero = { waiting: 0, running: 0, succeeded: 0, dead: 0, cancelled: 0 };
    assert.deepEqual(await store.jobCounts({ reach: {} }), [
      { ...zero, queue: "billing", waiting: 2, cancelled: 1 },
      { ...zero, queue: "scheduling", waiting: 1, succeeded: 1, dead: 1 },
    ]);
    assert.deepEqual(await store.jobCounts({ reach: { tenantId: "t1" } }), [
      { ...zero, queue: "billing", waiting: 1 },
    ]);
    assert.deepEqual(await store.jobCounts({ reach: { tenantId: "t3" } }), []);
  });

  test("pages answer jobs newest first, each once, while jobs are inserted between pages", async (store) => {
    const jobs = Array.from({ length: 7 }, (_, i) => job({ createdAt: at(Math.floor(i / 2)) }));
    for (const j of jobs) await store.jobInsert({ job: j });
    const expected = [...jobs].sort((a, b) =>
      b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)
    ).map((j) => j.id);
    let inserted = 0;
    const seen = await allPages(store, { reach: {}, limit: 2 }, async () => {
      inserted += 1;
      await store.jobInsert({ job: job({ createdAt: at(1_000 + inserted) }) });
    });
    assert.deepEqual(seen, expected);
    assert.ok(inserted >= 3);
    const [first] = (await store.jobPage({ reach: {}, limit: 1 })).jobs;
    assert.equal(first?.createdAt.getTime(), at(1_000 + inserted).getTime());
    assert.equal("payload" in (first as object), false);
  });

  test("a page narrows to a queue and a status", async (store) => {
    const a = job();
    const b = job({ queue: "billing", name: "billing.send-invoice" });
    const c = job();
    for (const j of [a, b, c]) await store.jobInsert({ job: j });
    await store.jobCancel({ id: c.id, reach: {}, now: at(1) });
    assert.deepEqual(await allPages(store, { reach: {}, queue: "billing", limit: 10 }), [b.id]);
    assert.deepEqual(
      await allPages(store, { reach: {}, queue: "scheduling", status: "waiting", limit: 10 }),
      [a.id],
    );
    assert.deepEqual(await allPages(store, { reach: {}, status: "cancelled", limit: 10 }), [c.id]);
  });

  test("a page searches by name prefix, subject, id and error code", async (store) => {
    const invoice = job({ queue: "billing", name: "billing.send-invoice", subject: "inv-1" });
    const failed = job({ subject: "cal-1" });
    const other = job({ subject: "cal-2" });
    for (const j of [invoice, failed, other]) await store.jobInsert({ job: j });
    await finish(store, failed, "CALENDAR_GONE");
    const search = (s: JobPageParams["search"]) =>
      allPages(store, { reach: {}, search: s, limit: 10 });
    assert.deepEqual(await search({ name: "billing." }), [invoice.id]);
    assert.deepEqual(await search({ name: "billing.send-invoice" }), [invoice.id]);
    assert.deepEqual(await search({ name: "billing.send-invoice-x" }), []);
    assert.deepEqual(await search({ subject: "cal-2" }), [other.id]);
    assert.deepEqual(await search({ subject: "cal" }), []);
    assert.deepEqual(await search({ id: failed.id }), [failed.id]);
    assert.deepEqual(await search({ errorCode: "CALENDAR_GONE" }), [failed.id]);
    assert.deepEqual(await search({ errorCode: "CALENDAR_GONE", subject: "cal-2" }), []);
    const [found] = (await store.jobPage({ reach: {}, search: { id: failed.id }, limit: 1 })).jobs;
    assert.equal(found?.status, "dead");
    assert.equal(found?.lastErrorCode, "CALENDAR_GONE");
    assert.deepEqual(found?.lastErrorAt, at(100_001));
    const [never] = (await store.jobPage({ reach: {}, search: { id: other.id }, limit: 1 })).jobs;
    assert.equal(never?.lastErrorAt, undefined);
  });

  test("a page answers each job's idempotency key (the scheduler's ticks are found by it)", async (store) => {
    const tick = job({ idempotencyKey: "tick:2026-05-01T08:00:00.000Z" });
    const plain = job({ createdAt: at(1) });
    for (const j of [tick, plain]) await store.jobInsert({ job: j });
    const { jobs } = await store.jobPage({
      reach: {},
      queue: "scheduling",
      search: { name: tick.name },
      limit: 10,
    });
    assert.deepEqual(jobs.map((j) => [j.id, j.idempotencyKey]), [
      [plain.id, undefined],
      [tick.id, "tick:2026-05-01T08:00:00.000Z"],
    ]);
  });

  test("another tenant's job is never paged, viewed or searched", async (store) => {
    const mine = job({ tenantId: "t1" });
    const theirs = job({ tenantId: "t2", subject: "s" });
    const nobodys = job();
    for (const j of [mine, theirs, nobodys]) await store.jobInsert({ job: j });
    const t1: TenantReach = { tenantId: "t1" };
    assert.deepEqual(await allPages(store, { reach: t1, limit: 10 }), [mine.id]);
    assert.deepEqual(
      await allPages(store, { reach: t1, search: { id: theirs.id }, limit: 10 }),
      [],
    );
    assert.deepEqual(await allPages(store, { reach: t1, search: { subject: "s" }, limit: 10 }), []);
    assert.equal(await store.jobView({ id: theirs.id, reach: t1 }), undefined);
    assert.equal(await store.jobView({ id: nobodys.id, reach: t1 }), undefined);
    assert.deepEqual(
      (await allPages(store, { reach: { tenantId: "t1", elevatedTenants: ["t2"] }, limit: 10 }))
        .sort(),
      [mine.id, theirs.id].sort(),
    );
    assert.equal((await allPages(store, { reach: {}, limit: 10 })).length, 3);
  });

  test("a job's view holds all but its payload: actor, progress, checkpoint, trace", async (store) => {
    const j = job({
      tenantId: "t1",
      subject: "c1",
      traceparent: "00-" + "a".repeat(32) + "-" + "b".repeat(16) + "-01",
    });
    await store.jobInsert({ job: j });
    const [claimed] = await store.jobClaim({ queue: j.queue, limit: 1, now: at(10), ...leases });
    await store.jobReport({
      id: j.id,
      leaseToken: claimed!.leaseToken,
      now: at(20),
      leaseMs: 1_000,
      progress: { done: 3, total: 10 },
      checkpoint: { cursor: "a3" },
    });
    const view = await store.jobView({ id: j.id, reach: { tenantId: "t1" } });
    assert.ok(view !== undefined);
    assert.equal("payload" in view, false);
    assert.deepEqual(
      {
        id: view.id,
        name: view.name,
        queue: view.queue,
        status: view.status,
        attempts: view.attempts,
        actor: view.actor,
        tenantId: view.tenantId,
        subject: view.subject,
        traceparent: view.traceparent,
        progress: view.progress,
        checkpoint: view.checkpoint,
        createdAt: view.createdAt.getTime(),
      },
      {
        id: j.id,
        name: j.name,
        queue: j.queue,
        status: "running",
        attempts: 1,
        actor: j.actor,
        tenantId: "t1",
        subject: "c1",
        traceparent: j.traceparent,
        progress: { done: 3, total: 10 },
        checkpoint: { cursor: "a3" },
        createdAt: j.createdAt.getTime(),
      },
    );
    assert.equal(
      await store.jobView({ id: "01900000-0000-7000-8000-000000000000", reach: {} }),
      undefined,
    );
  });

  test("activity counts jobs succeeded, attempts failed and jobs dead by bucket, of the reach", async (store) => {
    const minute = 60_000;
    const run = async (
      j: NewJob,
      claimAt: number,
      end: { at: number; fail?: string; retryAt?: number },
    ) => {
      const [claimed] = await store.jobClaim({
        queue: j.queue,
        limit: 1,
        now: at(claimAt),
        ...leases,
      });
      assert.equal(claimed?.id, j.id);
      const attempt = { id: j.id, leaseToken: claimed!.leaseToken, now: at(end.at) };
      if (end.fail === undefined) await store.jobComplete(attempt);
      else {
        await store.jobFail({
          ...attempt,
          errorCode: end.fail,
          errorMessage: "failed",
          ...(end.retryAt === undefined ? {} : { retryAt: at(end.retryAt) }),
        });
      }
    };
    const before = job({ tenantId: "t1", runAt: at(-2 * minute) });
    const ok = job({ tenantId: "t1" });
    const retried = job({ tenantId: "t1", maxAttempts: 2 });
    const died = job({ tenantId: "t1" });
    const lost = job({ tenantId: "t1" });
    const billing = job({ tenantId: "t2", queue: "billing", name: "billing.send-invoice" });
    await store.jobInsert({ job: before });
    await run(before, -minute, { at: -minute + 1 });
    for (const j of [ok, retried, died, billing]) await store.jobInsert({ job: j });
    await run(ok, 0, { at: 10_000 });
    await run(billing, 0, { at: 5_000 });
    await run(retried, 60_000, { at: 70_000, fail: "SLOT_TAKEN", retryAt: 120_000 });
    await run(died, 60_000, { at: 65_000, fail: "CALENDAR_GONE" });
    await run(retried, 120_000, { at: 130_000 });
    await store.jobInsert({ job: lost });
    await store.jobClaim({ queue: "scheduling", limit: 1, now: at(3 * minute), ...leases });
    assert.deepEqual(
      await store.jobClaim({
        queue: "scheduling",
        limit: 1,
        now: at(3 * minute + 1_000),
        ...leases,
      }),
      [],
      "the lease of the last attempt ended: dead, ATTEMPTS_EXHAUSTED",
    );
    const counts = (s: number, f: number, d: number) => ({ succeeded: s, failed: f, dead: d });
    const window = { since: t0, bucketMs: minute, buckets: 5 };
    const of = (activity: readonly { queue: string; buckets: readonly object[] }[]) =>
      activity.map(({ queue, buckets }) => ({
        queue,
        buckets: buckets.map((b) => {
          const { start, ...rest } = b as { start: Date };
          return [start.getTime() - t0.getTime(), rest];
        }),
      }));
    const scheduling = {
      queue: "scheduling",
      buckets: [
        [0, counts(1, 0, 0)],
        [minute, counts(0, 2, 1)],
        [2 * minute, counts(1, 0, 0)],
        [3 * minute, counts(0, 1, 1)],
        [4 * minute, counts(0, 0, 0)],
      ],
    };
    const billingActivity = {
      queue: "billing",
      buckets: [[0, counts(1, 0, 0)], ...[1, 2, 3, 4].map((i) => [i * minute, counts(0, 0, 0)])],
    };
    assert.deepEqual(
      of(await store.jobActivity({ reach: {}, ...window })),
      [billingActivity, scheduling],
    );
    assert.deepEqual(of(await store.jobActivity({ reach: { tenantId: "t1" }, ...window })), [
      scheduling,
    ]);
    assert.deepEqual(
      of(
        await store.jobActivity({ reach: { tenantId: "t1", elevatedTenants: ["t2"] }, ...window }),
      ),
      [billingActivity, scheduling],
    );
    assert.deepEqual(of(await store.jobActivity({ reach: { tenantId: "t3" }, ...window })), []);
    assert.deepEqual(
      of(await store.jobActivity({ reach: {}, queue: "billing", ...window })),
      [billingActivity],
    );
    assert.deepEqual(
      of(
        await store.jobActivity({
          reach: {},
          queue: "scheduling",
          since: t0,
          bucketMs: 2 * minute,
          buckets: 2,
        }),
      ),
      [{ queue: "scheduling", buckets: [[0, counts(1, 2, 1)], [2 * minute, counts(1, 1, 1)]] }],
    );
    assert.deepEqual(
      of(
        await store.jobActivity({
          reach: {},
          since: at(-2 * minute),
          bucketMs: minute,
          buckets: 1,
        }),
      ),
      [],
      "nothing happened in a window before it all",
    );
    assert.deepEqual(
      of(await store.jobActivity({ reach: {}, since: at(-minute), bucketMs: minute, buckets: 1 })),
      [{ queue: "scheduling", buckets: [[-minute, counts(1, 0, 0)]] }],
    );
  });

  test("activity refuses a window not on whole minutes, or longer than a day", async (store) => {
    const reach = {};
    await assert.rejects(
      store.jobActivity({ reach, since: at(1), bucketMs: 60_000, buckets: 1 }),
      RangeError,
    );
    await assert.rejects(
      store.jobActivity({ reach, since: t0, bucketMs: 1_000, buckets: 1 }),
      RangeError,
    );
    await assert.rejects(
      store.jobActivity({ reach, since: t0, bucketMs: 60_000, buckets: 0 }),
      RangeError,
    );
    await assert.rejects(
      store.jobActivity({ reach, since: t0, bucketMs: 60_000, buckets: 1_441 }),
      RangeError,
    );
    assert.deepEqual(
      await store.jobActivity({ reach, since: t0, bucketMs: 60_000, buckets: 1_440 }),
      [],
    );
  });

  test("a page refuses a limit out of bounds and a cursor it did not answer", async (store) => {
    await store.jobInsert({ job: job() });
    await assert.rejects(store.jobPage({ reach: {}, limit: jobPageMaxLimit + 1 }), RangeError);
    await assert.rejects(store.jobPage({ reach: {}, limit: 0 }), RangeError);
    await assert.rejects(store.jobPage({ reach: {}, limit: 1.5 }), RangeError);
    await assert.rejects(
      store.jobPage({ reach: {}, limit: 1, after: "not a cursor" }),
      InvalidJobCursorError,
    );
    await assert.rejects(
      store.jobPage({ reach: {}, limit: 1, after: btoa('{"x":1}') }),
      InvalidJobCursorError,
    );
    assert.equal((await store.jobPage({ reach: {}, limit: jobPageMaxLimit })).jobs.length, 1);
  });
}
