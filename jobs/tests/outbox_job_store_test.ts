import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { PostgresTransactions } from "@kit/kernel/postgres";
import type { NewJob } from "../store.ts";
import { pgTest } from "../../test_support/services.ts";
import { startPrivateRedis } from "../../test_support/private_redis.ts";
import {
  failFastRedisOptions,
  RedisDurabilityMonitor,
  RedisJobStore,
  tcpScripting,
} from "../redis.ts";
import { migrateJobOutbox, OutboxJobStore } from "../outbox.ts";

function newJob(i: number, idempotencyKey?: string): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "send",
    queue: "default",
    payload: { i },
    actor: { kind: "system", id: "test", roles: [], tenants: [], attributes: {} },
    correlationId: `c${i}`,
    maxAttempts: 3,
    runAt: new Date(0),
    createdAt: new Date(0),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  };
}

/** The jobs not relayed yet (relayed ones are kept, marked, for a replay). */
async function outboxRows(sql: import("postgres").default.Sql): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from kit_job_outbox where relayed_at is null`;
  return row!.count;
}

async function connect(url: string): Promise<IORedis> {
  const redis = new IORedis(url, {
    ...failFastRedisOptions({ connectTimeoutMs: 500 }),
    lazyConnect: true,
  });
  await redis.connect();
  return redis;
}

pgTest("Outbox enqueue: a Redis outage while enqueues commit loses no job", async ({ sql }) => {
  await migrateJobOutbox(sql);
  const server = await startPrivateRedis(["--appendonly", "yes", "--appendfsync", "always"]);
  let redis = await connect(server.url);
  try {
    const transactions = new PostgresTransactions(sql);
    const redisStore = new RedisJobStore(tcpScripting(redis), { listen: false, timeoutMs: 1_000 });
    const store = new OutboxJobStore(redisStore, sql, { onRelayError: () => {} });
    await server.stop("SIGKILL");

    const jobs = Array.from({ length: 20 }, (_, i) => newJob(i));
    for (const job of jobs) {
      const result = await transactions.run((unit) => store.jobInsert({ job, unit }));
      assert.deepEqual(result, { id: job.id }, "the enqueue commits with Redis down");
    }
    await assert.rejects(
      transactions.run(async (unit) => {
        await store.jobInsert({ job: newJob(99), unit });
        throw new Error("the use case fails");
      }),
      /the use case fails/,
    );
    assert.equal((await store.jobFind({ id: jobs[0]!.id, reach: {} }))?.status, "waiting");
    await assert.rejects(
      store.relay(),
      (e: unknown) => (e as { code?: string }).code === "SERVICE_UNAVAILABLE",
    );
    const waiting = await outboxRows(sql);
    assert.equal(
      waiting,
      20,
      "every committed job waits in the outbox; the rolled-back one is not there",
    );
    // Each commit woke the first store's relay; one may still be under way (its PostgreSQL part is
    // slow on a loaded machine). It must end, failed, before Redis is back, or it relays the rows
    // it holds itself and the relay below finds fewer.
    await store.stop();

    await server.start();
    redis.disconnect();
    redis = await connect(server.url);
    const after = new OutboxJobStore(
      new RedisJobStore(tcpScripting(redis), { listen: false }),
      sql,
    );
    assert.equal(await after.relay(), 20);
    const found = await after.jobList();
    assert.deepEqual(new Set(found.map((j) => j.id)), new Set(jobs.map((j) => j.id)));
    const left = await outboxRows(sql);
    assert.equal(left, 0);
    assert.equal((await after.jobFind({ id: jobs[0]!.id, reach: {} }))?.status, "waiting");
  } finally {
    redis.disconnect();
    await server.close();
  }
});

pgTest("Outbox relay that crashes after writing to Redis writes no job twice", async ({ sql }) => {
  await migrateJobOutbox(sql);
  const server = await startPrivateRedis(["--appendonly", "yes"]);
  const redis = await connect(server.url);
  try {
    const transactions = new PostgresTransactions(sql);
    const redisStore = new RedisJobStore(tcpScripting(redis), { listen: false });
    const crashing = new OutboxJobStore(
      {
        sharesTransaction: false,
        jobInsert: () => Promise.reject(new Error("unused")),
        async jobInsertMany(params: { jobs: readonly NewJob[] }) {
          await redisStore.jobInsertMany(params);
          throw new Error("crash after writing to Redis");
        },
      } as unknown as RedisJobStore,
      sql,
      { onRelayError: () => {} },
    );
    const jobs = Array.from({ length: 5 }, (_, i) => newJob(i));
    await transactions.run(async (unit) => {
      await crashing.jobInsertMany({ jobs, unit });
    });
    // The commit woke a relay of its own (it crashes too, quietly): wait for it, so that the rows
    // are not locked by it when this relay runs.
    await crashing.stop();
    await assert.rejects(crashing.relay(), /crash after writing/);
    assert.equal((await redisStore.jobList()).length, 5);
    const store = new OutboxJobStore(redisStore, sql);
    const claimed = await redisStore.jobClaim({
      queue: "default",
      now: new Date(1),
      limit: 1,
      defaultLeaseMs: 60_000,
      leases: {},
    });
    assert.equal(claimed.length, 1);
    assert.equal(await store.relay(), 5);
    const listed = await redisStore.jobList();
    assert.equal(listed.length, 5, "relayed again, no second job");
    assert.equal(
      listed.filter((j) => j.status === "running").length,
      1,
      "a claimed job is not reset",
    );
  } finally {
    redis.disconnect();
    await server.close();
  }
});

pgTest("Outbox enqueue keeps an idempotency key in the database", async ({ sql }) => {
  await migrateJobOutbox(sql);
  const server = await startPrivateRedis(["--appendonly", "yes"]);
  const redis = await connect(server.url);
  try {
    const transactions = new PostgresTransactions(sql);
    const store = new OutboxJobStore(
      new RedisJobStore(tcpScripting(redis), { listen: false }),
      sql,
    );
    const first = newJob(1, "k");
    const second = newJob(2, "k");
    assert.deepEqual(
      await transactions.run((unit) => store.jobInsert({ job: first, unit })),
      { id: first.id },
    );
    await store.relay();
    assert.deepEqual(
      await transactions.run((unit) => store.jobInsert({ job: second, unit })),
      { id: first.id, duplicate: true },
    );
    assert.equal(await store.relay(), 0);
    assert.equal((await store.jobList()).length, 1);
  } finally {
    redis.disconnect();
    await server.close();
  }
});

pgTest("Outbox relay is woken by the commit: no poll, no explicit relay", async ({ sql }) => {
  await migrateJobOutbox(sql);
  const server = await startPrivateRedis(["--appendonly", "yes"]);
  const redis = await connect(server.url);
  try {
    const transactions = new PostgresTransactions(sql);
    const redisStore = new RedisJobStore(tcpScripting(redis), { listen: false });
    const store = new OutboxJobStore(redisStore, sql, { pollMs: 3_600_000 });
    const job = newJob(1);
    await transactions.run((unit) => store.jobInsert({ job, unit }));
    await store.stop(); // waits for the relay the commit started
    assert.equal((await redisStore.jobFind({ id: job.id, reach: {} }))?.status, "waiting");
    assert.equal(await outboxRows(sql), 0);
  } finally {
    redis.disconnect();
    await server.close();
  }
});

pgTest(
  "Outbox store cancels inside a unit once it commits: a rolled-back cancel cancels nothing",
  async ({ sql }) => {
    await migrateJobOutbox(sql);
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = await connect(server.url);
    try {
      const transactions = new PostgresTransactions(sql);
      const store = new OutboxJobStore(
        new RedisJobStore(tcpScripting(redis), { listen: false }),
        sql,
      );
      const job = newJob(1);
      await transactions.run((unit) => store.jobInsert({ job, unit }));
      await store.stop();
      const cancel = { id: job.id, reach: {}, now: new Date(1) };
      await assert.rejects(
        transactions.run(async (unit) => {
          assert.equal(await store.jobCancel({ ...cancel, unit }), true);
          throw new Error("the use case fails");
        }),
        /the use case fails/,
      );
      assert.equal((await store.jobFind(cancel))?.status, "waiting");
      await transactions.run(async (unit) => {
        assert.equal(await store.jobCancel({ ...cancel, unit }), true);
      });
      assert.equal((await store.jobFind(cancel))?.status, "cancelled");
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
);

pgTest(
  "Outbox relay with a durability monitor: Redis losing its data gets every relayed job again, none written twice",
  async ({ sql }) => {
    await migrateJobOutbox(sql);
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = await connect(server.url);
    try {
      const transactions = new PostgresTransactions(sql);
      const logged: string[] = [];
      const logger = { log: (record: { code: string }) => logged.push(record.code) };
      const monitor = new RedisDurabilityMonitor(tcpScripting(redis), { logger });
      const inner = new RedisJobStore(tcpScripting(redis), { listen: false, durability: monitor });
      const store = new OutboxJobStore(inner, sql, { durability: monitor, logger });
      await monitor.check();
      const jobs = Array.from({ length: 30 }, (_, i) => newJob(i));
      for (const job of jobs) await transactions.run((unit) => store.jobInsert({ job, unit }));
      // Each commit and each loss wakes the relay in the background: stop() waits for it.
      const settled = async () => {
        await store.stop();
        await store.relay().catch(() => 0);
        return (await inner.jobList()).map((j) => j.id).sort();
      };
      const ids = jobs.map((j) => j.id).sort();
      assert.deepEqual(await settled(), ids);
      assert.equal(await outboxRows(sql), 0);

      await redis.flushall();
      await monitor.check();
      assert.equal(monitor.state, "data_lost");
      await assert.rejects(
        store.relay(),
        (e: unknown) => (e as { code?: string }).code === "SERVICE_UNAVAILABLE",
        "nothing is written while the loss is being reported",
      );
      assert.deepEqual(await settled(), []);
      await monitor.check();
      assert.deepEqual(await settled(), ids, "every job relayed is relayed again");
      assert.ok(logged.includes("REDIS_DATA_LOST") && logged.includes("JOB_RELAY_REPLAYED"));

      await server.stop("SIGKILL");
      await server.start();
      for (let i = 0; i < 50 && (await monitor.check(), monitor.state as string) !== "safe"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // (The restart's replay may already run in the background, woken by the check: settled()
      // waits for it.)
      assert.deepEqual(await settled(), ids, "a job Redis still holds is not written twice");
      assert.equal(
        logged.filter((code) => code === "JOB_RELAY_REPLAYED").length,
        2,
        "a restart relays the kept jobs again",
      );
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
);

pgTest(
  "Outbox relay deletes relayed jobs once kept keepRelayedMs; keyed jobs and jobs due later stay",
  async ({ sql }) => {
    await migrateJobOutbox(sql);
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = await connect(server.url);
    try {
      const transactions = new PostgresTransactions(sql);
      const inner = new RedisJobStore(tcpScripting(redis), { listen: false });
      const store = new OutboxJobStore(inner, sql, { keepRelayedMs: 0 });
      const later = { ...newJob(3), runAt: new Date(Date.now() + 3_600_000) };
      for (const job of [newJob(1), newJob(2, "kept-key"), later]) {
        await transactions.run((unit) => store.jobInsert({ job, unit }));
      }
      await store.stop();
      await store.relay();
      const rows = await sql<{ id: string }[]>`select id from kit_job_outbox order by seq`;
      assert.equal(rows.length, 2, "the plain job due now is deleted");
      assert.equal(rows[1]!.id, later.id);
      assert.equal((await inner.jobList()).length, 3);
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
);
