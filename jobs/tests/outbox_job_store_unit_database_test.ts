// An OutboxJobStore on another client than the unit of work's: refused on another database (the
// relay, reading its own client's outbox, would never see the job), written on the same.
import assert from "node:assert/strict";
import postgres from "postgres";
import { PostgresTransactions, transactionOf } from "@kit/kernel/postgres";
import {
  countRows,
  type PrivateDatabase,
  twoDatabaseTests,
} from "../../test_support/unit_database_cases.ts";
import { InMemoryJobStore } from "../mod.ts";
import type { NewJob } from "../store.ts";
import { migrateJobOutbox, OutboxJobStore } from "../outbox.ts";

const test = twoDatabaseTests("OutboxJobStore", {
  migrate: async (url) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrateJobOutbox(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  },
  tables: ["kit_job_outbox"],
});

function newJob(id: string): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "scheduling.send-reminder",
    queue: "default",
    payload: { appointmentId: id },
    actor: { kind: "system", id: "test", roles: [], tenants: [], attributes: {} },
    correlationId: id,
    maxAttempts: 3,
    runAt: new Date(0),
    createdAt: new Date(0),
  };
}

/** A client of the database, closed by the caller. */
function clientOf(database: PrivateDatabase): postgres.Sql {
  return postgres(database.url, { max: 4, onnotice: () => {} });
}

/** A use case's unit: an appointment written in its transaction, then the job enqueued. */
function planReminder(
  transactions: PostgresTransactions,
  store: OutboxJobStore,
  id: string,
): Promise<unknown> {
  return transactions.run(async (unit) => {
    await transactionOf(unit)!`insert into appointments (id) values (${id})`;
    return await store.jobInsert({ job: newJob(id), unit });
  });
}

test(
  "a store on another database than the unit of work is refused, and neither database keeps the job",
  async (a, b) => {
    const [unitSql, otherSql] = [clientOf(a), clientOf(b)];
    try {
      const inner = new InMemoryJobStore();
      const store = new OutboxJobStore(inner, otherSql);
      const transactions = new PostgresTransactions(unitSql);
      for (const id of ["r1", "r2"]) {
        // Refused every time: a verdict of "another database" is never kept.
        await assert.rejects(
          () => planReminder(transactions, store, id),
          (error: Error) => {
            assert.match(error.message, /^OutboxJobStore was made on a client of database /);
            assert.ok(error.message.includes(`database "${b.name}"`), error.message);
            assert.ok(error.message.includes(`is on database "${a.name}"`), error.message);
            assert.match(error.message, /OutboxJobStore wrote nothing/);
            assert.match(error.message, /beyond-one-database\.md/);
            return true;
          },
        );
      }
      for (const database of [a, b]) {
        assert.equal(await countRows(database, "kit_job_outbox"), 0, database.name);
      }
      assert.equal(await countRows(a, "appointments"), 0, "the unit rolled back");
      assert.equal(await store.relay(), 0);
      assert.deepEqual(await inner.jobList(), []);
    } finally {
      await unitSql.end({ timeout: 5 });
      await otherSql.end({ timeout: 5 });
    }
  },
);

/** Two enqueues committed in `a`, relayed to the inner store by the store's client. */
async function enqueuesAndRelays(
  a: PrivateDatabase,
  unitSql: postgres.Sql,
  storeSql: postgres.Sql,
): Promise<void> {
  const inner = new InMemoryJobStore();
  const store = new OutboxJobStore(inner, storeSql);
  const transactions = new PostgresTransactions(unitSql);
  for (const id of ["s1", "s2"]) await planReminder(transactions, store, id);
  assert.equal(await countRows(a, "kit_job_outbox"), 2);
  assert.equal(await countRows(a, "appointments"), 2);
  // Each commit woke a relay: the one under way is waited for, and what it left is relayed.
  await store.stop();
  await store.relay();
  assert.equal(await countRows(a, "kit_job_outbox where relayed_at is null"), 0);
  const relayed = await inner.jobList();
  assert.deepEqual(relayed.map((job) => job.correlationId).sort(), ["s1", "s2"]);
}

test(
  "a store on a second client of the unit's database enqueues in the unit, and the job is relayed",
  async (a, b) => {
    const [unitSql, second] = [clientOf(a), clientOf(a)];
    try {
      await enqueuesAndRelays(a, unitSql, second);
      assert.equal(await countRows(b, "kit_job_outbox"), 0);
    } finally {
      await unitSql.end({ timeout: 5 });
      await second.end({ timeout: 5 });
    }
  },
);

test(
  "a store on the unit's own client enqueues in the unit, and the job is relayed",
  async (a) => {
    const sql = clientOf(a);
    try {
      await enqueuesAndRelays(a, sql, sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  },
);
