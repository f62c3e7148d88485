import assert from "node:assert/strict";
import { InMemoryTransactions, type TransactionManager, userActor } from "@kit/kernel";
import type { JobStore, NewJob } from "../store/job_store.ts";
import { jobStoreReadContract } from "./job_store_read_contract.ts";
import { jobStoreAttemptsContract } from "./job_store_attempts_contract.ts";
import { jobStoreWorkersContract } from "./job_store_workers_contract.ts";
import { jobStoreRetentionContract } from "./job_store_retention_contract.ts";

/** A store opened for one case of the contract. */
export interface OpenedJobStore {
  /** The empty store. */
  readonly store: JobStore;
  /**
   * Opens the units of work the store writes in: required when the store shares the transaction
   * (`PostgresTransactions` on the store's client); default `InMemoryTransactions`.
   */
  readonly transactions?: TransactionManager;
  /** Closes the store. */
  close(): Promise<void>;
}

/** How the contract opens a fresh, empty store for each case, and closes it. */
export interface JobStoreUnderTest {
  /** A name for the test titles (`InMemoryJobStore`). */
  readonly name: string;
  /** Skips every case (a store whose service is not configured). */
  readonly ignore?: boolean;
  /** Opens an empty store. */
  open(): Promise<OpenedJobStore>;
}

const t0 = new Date("2026-05-01T08:00:00.000Z");
const at = (ms: number): Date => new Date(t0.getTime() + ms);
const leases = { leases: {}, defaultLeaseMs: 1_000 } as const;
let sequence = 0;

/** A new job for the contract's cases. */
function job(overrides: Partial<NewJob> = {}): NewJob {
  sequence += 1;
  const id = overrides.id ??
    `0190${String(sequence).padStart(4, "0")}-0000-7000-8000-${crypto.randomUUID().slice(-12)}`;
  return {
    id,
    name: "scheduling.clear-calendar",
    queue: "scheduling",
    payload: { calendarId: "c1", appointmentIds: ["a1"], reason: "closing" },
    actor: userActor("u1", { roles: ["practitioner"], attributes: { site: "north" } }),
    correlationId: "corr-1",
    maxAttempts: 3,
    runAt: t0,
    createdAt: t0,
    ...overrides,
  };
}

/** Checks that an attempt holding `leaseToken` may neither report (`stale`) nor complete. */
async function refusesStale(
  store: JobStore,
  id: string,
  leaseToken: string,
  now: Date,
): Promise<void> {
  assert.equal(await store.jobReport({ id, leaseToken, now, leaseMs: 1_000 }), "stale");
  const later = new Date(now.getTime() + 1);
  assert.equal(await store.jobComplete({ id, leaseToken, now: later }), false);
}

/** Checks that a job waits again with no attempt counted, and that its next claim is attempt 1. */
async function waitsAfresh(store: JobStore, id: string, now: Date): Promise<void> {
  const found = await store.jobFind({ id, reach: {} });
  assert.equal(found?.status, "waiting");
  assert.equal(found?.attempts, 0);
  const [again] = await store.jobClaim({ queue: "scheduling", limit: 1, now, ...leases });
  assert.equal(again?.id, id);
  assert.equal(again?.attempt, 1);
}

/**
 * The conformance suite every job store passes: every row of the job state table, idempotency
 * across tenants, stale reports, lease expiry, cancellation, revival and purge.
 *
 * @example
 * ```ts ignore
 * jobStoreContract({
 *   name: "InMemoryJobStore",
 *   open: () => Promise.resolve({ store: new InMemoryJobStore(), close: () => Promise.resolve() }),
 * });
 * ```
 */
export function jobStoreContract(subject: JobStoreUnderTest): void {
  const test = (
    name: string,
    fn: (store: JobStore, transactions: TransactionManager) => Promise<void>,
  ) =>
    Deno.test({
      name: `${subject.name} (jobStoreContract): ${name}`,
      ignore: subject.ignore ?? false,
      sanitizeOps: false,
      sanitizeResources: false,
      fn: async () => {
        const { store, close, transactions } = await subject.open();
        try {
          if (transactions === undefined && store.sharesTransaction) {
            throw new Error(
              `${subject.name} shares the transaction: its open() must answer the transactions it writes in`,
            );
          }
          await fn(store, transactions ?? new InMemoryTransactions());
        } finally {
          await close();
        }
      },
    });

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
      for (let i = 0; i < 20 && answeredA === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
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

  jobStoreReadContract((name, fn) => test(name, (store) => fn(store)));
  jobStoreAttemptsContract((name, fn) => test(name, (store) => fn(store)));
  jobStoreWorkersContract((name, fn) => test(name, (store) => fn(store)));
  jobStoreRetentionContract((name, fn) => test(name, (store) => fn(store)));
}
