import assert from "node:assert/strict";
import { currentSql, PostgresTransactions } from "@kit/kernel/postgres";
import { systemActor } from "@kit/kernel";
import type postgres from "postgres";
import { ignoreWithout } from "../../test_support/services.ts";
import { fileSchema } from "../../test_support/file_schema.ts";
import { sqlJobStoreCases } from "../../test_support/sql_job_store_cases.ts";
import { jobStoreContract } from "../testing/job_store_contract.ts";
import { migrateJobs, PostgresJobStore } from "../postgres.ts";
import { InMemoryJobStore } from "./in_memory_job_store.ts";
import { ContextRoutedJobStore } from "./context_routed_job_store.ts";
import type { JobStore, NewJob } from "./job_store.ts";

/** The queues the store contract's cases enqueue in. */
const contractQueues = ["appointments", "billing", "mail", "scheduling"];

jobStoreContract({
  name: "ContextRoutedJobStore of in-memory stores",
  open: () =>
    Promise.resolve({
      store: new ContextRoutedJobStore({
        stores: Object.fromEntries(contractQueues.map((q) => [q, new InMemoryJobStore()])),
      }),
      close: () => Promise.resolve(),
    }),
});

/** The schemas of the file's own cases, `<schema>_a`, `_b` and `_c`. */
const ownQueues = ["a", "b", "c"];

// The contract's queues, each in a schema `<schema>_<queue>`, and the own cases' queues, each in a
// schema `<schema>_<a|b|c>`: migrated once for the file, emptied before each case.
const withSchemas = fileSchema(async ({ sql, schema }) => {
  for (const q of [...contractQueues, ...ownQueues]) {
    await migrateJobs(sql, { schema: `${schema}_${q}` });
  }
  await sql`create table appointments (id text primary key)`;
});

/** A store per queue, each in its own schema of the test database (migrated for the file). */
function routedOn(
  sql: postgres.Sql,
  queues: readonly string[],
  listen = false,
): ContextRoutedJobStore {
  return new ContextRoutedJobStore({
    stores: Object.fromEntries(
      queues.map((schema) => [schema, new PostgresJobStore(sql, { schema, listen })]),
    ),
  });
}

/** How many jobs each schema's `background_jobs` keeps, by schema. */
async function jobsBySchema(sql: postgres.Sql, schemas: readonly string[]) {
  const counts: Record<string, number> = {};
  for (const schema of schemas) {
    const [row] = await sql.unsafe(`select count(*)::int as n from "${schema}".background_jobs`);
    counts[schema] = row!.n as number;
  }
  return counts;
}

// The whole contract and the shared-transaction cases (rollback, claim and run, LISTEN wake-up,
// many in one statement) on a store per schema: the queue `scheduling` of the cases is routed to
// its schema, the others to theirs.
sqlJobStoreCases(
  "ContextRoutedJobStore of PostgresJobStores",
  (fn) =>
    withSchemas(async ({ sql, schema }) => {
      const queues = contractQueues.map((q) => `${schema}_${q}`);
      await fn({
        transactions: new PostgresTransactions(sql),
        store: ({ listen }) =>
          new ContextRoutedJobStore({
            stores: Object.fromEntries(
              contractQueues.map((
                q,
                i,
              ) => [q, new PostgresJobStore(sql, { schema: queues[i]!, listen })]),
            ),
          }),
        insertAppointment: async (id) => {
          await currentSql(sql)`insert into appointments (id) values (${id})`;
        },
        divideByZero: async () => {
          await currentSql(sql)`select 1 / 0`;
        },
        count: async (table) => {
          if (table === "appointments") {
            return (await sql`select count(*)::int as n from appointments`)[0]!.n as number;
          }
          const counts = await jobsBySchema(sql, queues);
          return Object.values(counts).reduce((a, b) => a + b, 0);
        },
      });
    }),
);

const t0 = new Date("2026-05-01T08:00:00.000Z");

function job(queue: string, n: number, overrides: Partial<NewJob> = {}): NewJob {
  return {
    id: `0190${String(n).padStart(4, "0")}-0000-7000-8000-${crypto.randomUUID().slice(-12)}`,
    name: `${queue}.work`,
    queue,
    payload: { n },
    actor: systemActor,
    correlationId: `corr-${n}`,
    maxAttempts: 3,
    runAt: t0,
    createdAt: new Date(t0.getTime() + n),
    ...overrides,
  };
}

const pg = (name: string, fn: (sql: postgres.Sql, schema: string) => Promise<void>) =>
  Deno.test({
    name,
    ignore: ignoreWithout("DATABASE_URL"),
    sanitizeOps: false,
    sanitizeResources: false,
    fn: () => withSchemas(({ sql, schema }) => fn(sql, schema)),
  });

pg(
  "a job is kept in its queue's schema only, in the unit's transaction; a rollback keeps none",
  async (sql, schema) => {
    const [a, b] = [`${schema}_a`, `${schema}_b`];
    const store = routedOn(sql, [a, b]);
    const transactions = new PostgresTransactions(sql);
    const kept = job(a, 1, { idempotencyKey: "k" });
    await transactions.run((unit) => store.jobInsert({ job: kept, unit }));
    assert.deepEqual(await jobsBySchema(sql, [a, b]), { [a]: 1, [b]: 0 });
    const [row] = await sql.unsafe(
      `select queue, tenant_id from "${a}".background_jobs where id = $1`,
      [kept.id],
    );
    assert.deepEqual({ ...row }, { queue: a, tenant_id: "" });
    await assert.rejects(() =>
      transactions.run(async (unit) => {
        await store.jobInsert({ job: job(b, 2), unit });
        throw new Error("the use case refused");
      }), /the use case refused/);
    assert.deepEqual(await jobsBySchema(sql, [a, b]), { [a]: 1, [b]: 0 });
    // The key is unique per name, tenant and key: the same key with a tenant is another job.
    const again = await store.jobInsert({ job: job(a, 3, { idempotencyKey: "k" }) });
    assert.deepEqual(again, { id: kept.id, duplicate: true });
    const tenant = job(a, 4, { idempotencyKey: "k", tenantId: "t1" });
    assert.deepEqual(await store.jobInsert({ job: tenant }), { id: tenant.id });
  },
);

pg(
  "the operators' reads merge every schema's jobs; a page's cursor walks them all once",
  async (sql, schema) => {
    const queues = [`${schema}_a`, `${schema}_b`, `${schema}_c`];
    const store = routedOn(sql, queues);
    const jobs = [1, 2, 3, 4, 5, 6, 7].map((n) => job(queues[n % 3]!, n));
    for (const j of jobs) await store.jobInsert({ job: j });
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await store.jobPage({ reach: {}, limit: 2, ...(after ? { after } : {}) });
      assert.ok(page.jobs.length <= 2);
      seen.push(...page.jobs.map((j) => j.id));
      after = page.next;
    } while (after !== undefined);
    assert.deepEqual(seen, jobs.map((j) => j.id).reverse(), "newest first, each once");
    assert.deepEqual(
      (await store.jobCounts({ reach: {} })).map((c) => [c.queue, c.waiting]),
      [[queues[0], 2], [queues[1], 3], [queues[2], 2]],
    );
    assert.deepEqual((await store.jobList()).map((j) => j.id), jobs.map((j) => j.id));
    const [claimed] = await store.jobClaim({
      queue: queues[1]!,
      limit: 1,
      now: t0,
      leases: {},
      defaultLeaseMs: 1_000,
    });
    assert.equal(claimed?.id, jobs[0]!.id);
    // The lease token names the store that claimed: another queue's token does not hold the job.
    const other = claimed!.leaseToken.replace(/^[^:]+/, queues[0]!);
    assert.equal(await store.jobComplete({ id: claimed!.id, leaseToken: other, now: t0 }), false);
    assert.equal(
      await store.jobComplete({ id: claimed!.id, leaseToken: claimed!.leaseToken, now: t0 }),
      true,
    );
    assert.equal((await store.jobFind({ id: claimed!.id, reach: {} }))?.status, "succeeded");
    assert.equal((await store.jobView({ id: jobs[2]!.id, reach: {} }))?.queue, queues[0]);
    assert.equal(
      await store.jobCancel({ id: jobs[2]!.id, reach: {}, now: t0 }),
      true,
      "cancelled in the store that keeps it",
    );
    assert.equal((await store.jobPage({ reach: {}, limit: 10, queue: queues[2]! })).jobs.length, 2);
  },
);

pg("an idle worker hears a job of each queue once, from its own store", async (sql, schema) => {
  const queues = [`${schema}_a`, `${schema}_b`];
  const store = routedOn(sql, queues, true);
  const heard: string[] = [];
  const stop = await store.jobListen!((queue) => heard.push(queue));
  try {
    await store.jobInsert({ job: job(queues[0]!, 1) });
    await store.jobInsert({ job: job(queues[1]!, 2) });
    for (let i = 0; i < 200 && heard.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(heard.sort(), queues);
  } finally {
    await stop();
  }
});

Deno.test("a job of a queue no store is routed to is refused, naming the queue and the routed ones", async () => {
  const store = new ContextRoutedJobStore({ stores: { billing: new InMemoryJobStore() } });
  await assert.rejects(
    () => store.jobInsert({ job: job("mail", 1) }),
    /No job store for queue 'mail': the ContextRoutedJobStore routes 'billing'/,
  );
});

Deno.test("stores that do not all share the transaction, no store, or a bad queue name are refused", () => {
  const sharing = { sharesTransaction: true } as unknown as JobStore;
  assert.throws(
    () => new ContextRoutedJobStore({ stores: { a: new InMemoryJobStore(), b: sharing } }),
    /all share the enqueuing transaction, or none does/,
  );
  assert.throws(() => new ContextRoutedJobStore({ stores: {} }), /needs a store per queue/);
  assert.throws(
    () => new ContextRoutedJobStore({ stores: { "Bad:Queue": new InMemoryJobStore() } }),
    /queue is a context name .*"Bad:Queue"/,
  );
});
