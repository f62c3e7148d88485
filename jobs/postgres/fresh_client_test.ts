import assert from "node:assert/strict";
import { systemActor } from "@kit/kernel";
import postgres from "postgres";
import { pgTest } from "../../test_support/services.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import type { NewJob } from "../store/job_store.ts";

const t0 = new Date("2026-05-01T08:00:00.000Z");

function job(extra: Partial<NewJob> = {}): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "fresh.job",
    queue: "fresh",
    payload: { n: 1 },
    actor: systemActor,
    correlationId: "c",
    maxAttempts: 3,
    runAt: t0,
    createdAt: t0,
    ...extra,
  };
}

/**
 * Runs `first` as the very first statement of a brand-new postgres.js client on the schema (the
 * client has fetched no type yet: postgres.js issue 789 makes a first `sql.array` parameter fail
 * with "malformed array literal").
 */
async function onFreshClient<T>(
  url: string,
  schema: string,
  first: (store: PostgresJobStore) => Promise<T>,
): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
  try {
    return await first(new PostgresJobStore(sql, { listen: false }));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

pgTest(
  "PostgresJobStore: every statement works as the first of a fresh client (postgres.js issue 789)",
  async ({ sql, url, schema }) => {
    await migrateJobs(sql);
    const store = new PostgresJobStore(sql, { listen: false });

    const a = job({ tenantId: "t1", idempotencyKey: "k" });
    const b = job();
    assert.deepEqual(
      await onFreshClient(url, schema, (fresh) => fresh.jobInsertMany({ jobs: [a, b] })),
      [{ id: a.id }, { id: b.id }],
      "the first enqueue of an enqueue-only producer",
    );
    const again = job({ tenantId: "t1", idempotencyKey: "k" });
    assert.deepEqual(
      await onFreshClient(url, schema, (fresh) => fresh.jobInsertMany({ jobs: [again] })),
      [{ id: a.id, duplicate: true }],
      "a kept key found on a fresh client",
    );
    assert.deepEqual(
      await onFreshClient(url, schema, (fresh) => fresh.jobInsert({ job: job() })).then((r) =>
        r.duplicate
      ),
      undefined,
    );
    assert.equal(
      (await onFreshClient(
        url,
        schema,
        (fresh) => fresh.jobFind({ id: a.id, reach: { tenantId: "t2", elevatedTenants: ["t1"] } }),
      ))?.id,
      a.id,
      "a tenant-filtered find",
    );
    assert.equal(
      await onFreshClient(
        url,
        schema,
        (fresh) => fresh.jobCancel({ id: b.id, reach: { tenantId: "t9" }, now: t0 }),
      ),
      false,
    );
    const claimed = await onFreshClient(
      url,
      schema,
      (fresh) =>
        fresh.jobClaim({
          queue: "fresh",
          limit: 10,
          now: t0,
          leases: { "fresh.job": 5_000 },
          defaultLeaseMs: 1_000,
        }),
    );
    assert.equal(claimed.length, 3);
    const [first, second, ...rest] = claimed;
    assert.equal(
      await onFreshClient(url, schema, (fresh) =>
        fresh.jobReport({
          id: first!.id,
          leaseToken: first!.leaseToken,
          now: t0,
          leaseMs: 5_000,
          progress: { done: 1, total: 2 },
          checkpoint: { next: 1 },
        })),
      "ok",
    );
    assert.deepEqual(
      await onFreshClient(url, schema, (fresh) =>
        fresh.jobCompleteMany({
          jobs: [
            { id: first!.id, leaseToken: first!.leaseToken },
            { id: second!.id, leaseToken: "stale" },
          ],
          now: t0,
        })),
      [true, false],
    );
    assert.equal(
      await onFreshClient(url, schema, (fresh) =>
        fresh.jobFail({
          id: second!.id,
          leaseToken: second!.leaseToken,
          now: t0,
          errorCode: "X",
          errorMessage: "x",
        })),
      true,
    );
    for (const held of rest) {
      assert.equal(
        await onFreshClient(
          url,
          schema,
          (fresh) => fresh.jobRelease({ id: held.id, leaseToken: held.leaseToken, now: t0 }),
        ),
        true,
      );
    }
    assert.equal(
      await onFreshClient(
        url,
        schema,
        (fresh) => fresh.jobRetryDead({ id: second!.id, reach: { tenantId: "t9" }, now: t0 }),
      ),
      false,
    );
    assert.equal(
      await onFreshClient(url, schema, (fresh) => fresh.jobPurgeFinished({ before: t0 })),
      0,
    );
    assert.equal(
      (await onFreshClient(url, schema, (fresh) => fresh.jobList({ status: "succeeded" }))).length,
      1,
    );
    assert.equal((await store.jobList()).length, 3);
  },
);
