/**
 * The Redis store on a Redis Cluster: a private cluster of three masters with a replica each
 * (`redis-server --cluster-enabled yes`, append-only file on), started once for this file. The
 * store contract runs on it; then the cluster-only behaviour: a prefix without a hash tag
 * refused, every key of a store on one slot, an enqueue unacknowledged while no replica has it,
 * nodes that disagree on durability named; last, a fail-over under enqueue load that loses no
 * acknowledged job.
 */
import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import { Cluster } from "ioredis";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { jobStoreContract } from "../testing.ts";
import {
  failFastRedisOptions,
  RedisDurabilityMonitor,
  RedisJobStore,
  type RedisLoss,
  RedisNotDurableError,
  RedisUnavailableError,
  tcpScripting,
} from "../redis.ts";
import type { NewJob } from "../store/job_store.ts";
import {
  type PrivateRedisCluster,
  skipWithoutRedisServer,
  startPrivateRedisCluster,
} from "../../test_support/private_redis.ts";
import { until } from "../../test_support/until.ts";
import { ignoreWithout, withTestDatabase } from "../../test_support/services.ts";
import { PostgresTransactions } from "@kit/kernel/postgres";
import { migrateJobOutbox, OutboxJobStore } from "../outbox.ts";

let started: Promise<PrivateRedisCluster> | undefined;
const privateCluster = (): Promise<PrivateRedisCluster> =>
  started ??= startPrivateRedisCluster(["--appendonly", "yes", "--appendfsync", "everysec"]);

const silent = { log() {} };

/** A reader the test collects from. */
class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

async function connect(): Promise<Cluster> {
  const nodes = await privateCluster();
  const client = new Cluster([...nodes.startupNodes], {
    lazyConnect: true,
    enableOfflineQueue: false,
    redisOptions: { connectTimeout: 1_000, commandTimeout: 2_000, maxRetriesPerRequest: 1 },
  });
  await client.connect();
  return client;
}

/** Deletes every key under the prefix (one slot: they are all on one master). */
async function clear(client: Cluster, prefix: string): Promise<void> {
  for (const node of client.nodes("master")) {
    const keys = await node.keys(`${prefix}*`).catch(() => [] as string[]);
    if (keys.length > 0) await node.del(...keys).catch(() => {});
  }
}

function job(i: number, queue = "scheduling"): NewJob {
  return {
    id: crypto.randomUUID(),
    name: `${queue}.clear-calendar`,
    queue,
    payload: { i },
    actor: userActor("u1"),
    correlationId: `c${i}`,
    maxAttempts: 3,
    runAt: new Date(Date.parse("2026-05-01T08:00:00.000Z")),
    createdAt: new Date(Date.parse("2026-05-01T08:00:00.000Z") + i),
  };
}

jobStoreContract({
  name: "RedisJobStore on a Redis Cluster (ioredis Cluster, a replica per master)",
  ignore: skipWithoutRedisServer,
  async open() {
    const client = await connect();
    const prefix = `{test:${crypto.randomUUID()}}:`;
    return {
      // Default durability ("refuse"): every node has the append-only file on.
      store: new RedisJobStore(tcpScripting(client, { logger: silent }), { prefix }),
      async close() {
        await clear(client, prefix);
        client.disconnect();
      },
    };
  },
});

Deno.test({
  name: "RedisJobStore on a cluster refuses a prefix without a hash tag, naming it",
  ignore: skipWithoutRedisServer,
  async fn() {
    const client = await connect();
    try {
      const redis = tcpScripting(client, { logger: silent });
      for (const prefix of ["kit:jobs:", "kit:{}:jobs:", "kit:{jobs:", "kit:}{jobs:"]) {
        assert.throws(
          () => new RedisJobStore(redis, { prefix }),
          (error: Error) =>
            error instanceof TypeError && error.message.includes(`'${prefix}' has no hash tag`),
        );
      }
    } finally {
      client.disconnect();
    }
  },
});

Deno.test({
  name:
    "RedisJobStore on a cluster client just built (not connected yet) keys under {kit:jobs}: and acknowledges its first enqueue",
  ignore: skipWithoutRedisServer,
  async fn() {
    const nodes = await privateCluster();
    // As an application builds it: no connect(), the first operation at once.
    const client = new Cluster([...nodes.startupNodes], {
      enableOfflineQueue: false,
      redisOptions: failFastRedisOptions(),
    });
    try {
      const store = new RedisJobStore(tcpScripting(client, { logger: silent }));
      const first = job(1, `q${crypto.randomUUID()}`);
      assert.deepEqual(await store.jobInsert({ job: first }), { id: first.id });
      assert.equal((await store.jobFind({ id: first.id, reach: {} }))?.id, first.id);
      assert.equal(
        await client.exists(`{kit:jobs}:job:${first.id}`),
        1,
        "the job's hash is under the default tagged prefix",
      );
      await clear(client, "{kit:jobs}:");
    } finally {
      client.disconnect();
    }
  },
});

Deno.test({
  name:
    "RedisJobStore on a cluster keeps every key of the store on the slot of its tag, over many queues",
  ignore: skipWithoutRedisServer,
  async fn() {
    const client = await connect();
    const prefix = `{test:${crypto.randomUUID()}}:`;
    try {
      const store = new RedisJobStore(tcpScripting(client, { logger: silent }), { prefix });
      const queues = ["a", "b", "c", "d", "e", "f"];
      await store.jobInsertMany({
        jobs: queues.map((q, i) => ({ ...job(i, q), idempotencyKey: q })),
      });
      const now = new Date(Date.parse("2026-05-01T08:00:01.000Z"));
      for (const [i, queue] of queues.entries()) {
        const [claimed] = await store.jobClaim({
          queue,
          limit: 1,
          now,
          leases: {},
          defaultLeaseMs: 1_000,
        });
        if (i % 2 === 0) {
          await store.jobComplete({ id: claimed!.id, leaseToken: claimed!.leaseToken, now });
        } else {
          await store.jobFail({
            id: claimed!.id,
            leaseToken: claimed!.leaseToken,
            now,
            errorCode: "BOOM",
            errorMessage: "boom",
          });
        }
      }
      await store.workerHeartbeat({
        worker: { id: "w1", queues, startedAt: now },
        now,
        ttlMs: 10_000,
      });
      const keys: string[] = [];
      for (const node of client.nodes("master")) keys.push(...await node.keys(`${prefix}*`));
      assert.ok(keys.length > queues.length * 3, `${keys.length} keys`);
      const slots = new Set(
        await Promise.all(keys.map((key) => client.nodes("master")[0]!.cluster("KEYSLOT", key))),
      );
      assert.equal(slots.size, 1, `the store's keys hash to the slots ${[...slots].join(", ")}`);
      assert.equal((await store.jobCounts({ reach: {} })).length, queues.length);
    } finally {
      await clear(client, prefix);
      client.disconnect();
    }
  },
});

Deno.test({
  name:
    "RedisJobStore on a cluster does not acknowledge an enqueue that no replica has (WAIT), counting it in kit.jobs.replica_wait.failed, and does once it has",
  ignore: skipWithoutRedisServer,
  async fn() {
    const nodes = await privateCluster();
    const client = await connect();
    const prefix = `{test:${crypto.randomUUID()}}:`;
    const replica = await nodes.replicaOf(await nodes.masterOf(`${prefix}all`));
    try {
      const reader = new CollectingReader();
      const meterProvider = new MeterProvider({ readers: [reader] });
      const store = new RedisJobStore(
        tcpScripting(client, { logger: silent, replicaTimeoutMs: 200, meterProvider }),
        { prefix },
      );
      await store.checkDurability(); // reads every node's settings, the frozen one included
      nodes.freeze(replica);
      const first = job(1);
      await assert.rejects(
        () => store.jobInsert({ job: first }),
        (error: Error) =>
          error instanceof RedisUnavailableError &&
          /0 of the 1 replica\(s\) required had the write within 200 ms: not acknowledged/
            .test(String(error.message) + String((error as { reason?: string }).reason ?? "")),
      );
      const { resourceMetrics } = await reader.collect();
      const failed = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
        .find((metric) => metric.descriptor.name === "kit.jobs.replica_wait.failed");
      assert.deepEqual(
        failed?.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
        [{ attributes: { operation: "enqueue" }, value: 1 }],
      );
      await meterProvider.shutdown();
      nodes.thaw(replica);
      // The thawed replica catches up first: a store that waits for it long enough (on a
      // loaded machine, more than 200 ms) is answered.
      const patient = new RedisJobStore(
        tcpScripting(client, { logger: silent, replicaTimeoutMs: 5_000 }),
        { prefix, timeoutMs: 10_000 },
      );
      const second = job(2);
      assert.deepEqual(await patient.jobInsert({ job: second }), { id: second.id });
      // The job refused an acknowledgement may still run: it is on the master.
      assert.deepEqual(
        (await store.jobList()).map((j) => j.id).sort(),
        [first.id, second.id].sort(),
      );
    } finally {
      nodes.thaw(replica);
      await clear(client, prefix);
      client.disconnect();
    }
  },
});

Deno.test({
  name: "RedisJobStore on a cluster refuses nodes that would lose jobs, naming each",
  ignore: skipWithoutRedisServer,
  async fn() {
    const nodes = await privateCluster();
    const client = await connect();
    const prefix = `{test:${crypto.randomUUID()}}:`;
    const replica = await nodes.replicaOf(await nodes.masterOf(`${prefix}all`));
    try {
      await nodes.cli(replica, "CONFIG", "SET", "appendonly", "no");
      const store = new RedisJobStore(tcpScripting(client, { logger: silent }), { prefix });
      await assert.rejects(
        () => store.jobInsert({ job: job(1) }),
        (error: Error) =>
          error instanceof RedisNotDurableError &&
          error.message.includes(`no on 127.0.0.1:${replica}`) &&
          error.message.includes("appendonly is 'yes on 127.0.0.1:"),
      );
      assert.deepEqual(await store.jobList().catch(() => []), []);
    } finally {
      await nodes.cli(replica, "CONFIG", "SET", "appendonly", "yes");
      await clear(client, prefix);
      client.disconnect();
    }
  },
});

Deno.test({
  name:
    "RedisJobStore on a cluster wakes a listener on another client at once: the script's PUBLISH reaches a subscriber connected to any node",
  ignore: skipWithoutRedisServer,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const [listening, producing] = [await connect(), await connect()];
    const prefix = `{test:${crypto.randomUUID()}}:`;
    const heard: string[] = [];
    const options = { prefix };
    const listener = new RedisJobStore(tcpScripting(listening, { logger: silent }), options);
    const producer = new RedisJobStore(tcpScripting(producing, { logger: silent }), options);
    const stop = await listener.jobListen!((queue) => heard.push(queue));
    try {
      await producer.jobInsert({ job: job(1, "wake") });
      await until(() => heard.includes("wake"), "the enqueue heard by the listener", {
        ms: 5_000,
      });
    } finally {
      await stop();
      await clear(producing, prefix);
      listening.disconnect();
      producing.disconnect();
    }
  },
});

Deno.test({
  name:
    "OutboxJobStore over a cluster store: rows wait in PostgreSQL while no replica acknowledges, and are relayed once one does",
  ignore: skipWithoutRedisServer || ignoreWithout("DATABASE_URL"),
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withTestDatabase(async ({ sql }) => {
      await migrateJobOutbox(sql);
      const nodes = await privateCluster();
      const client = await connect();
      const prefix = `{test:${crypto.randomUUID()}}:`;
      const replica = await nodes.replicaOf(await nodes.masterOf(`${prefix}all`));
      const redisStore = new RedisJobStore(
        tcpScripting(client, { logger: silent, replicaTimeoutMs: 200 }),
        { prefix, listen: false },
      );
      const store = new OutboxJobStore(redisStore, sql, { onRelayError: () => {} });
      const transactions = new PostgresTransactions(sql);
      try {
        await redisStore.checkDurability();
        nodes.freeze(replica);
        const jobs = Array.from({ length: 5 }, (_, i) => job(i));
        for (const next of jobs) {
          assert.deepEqual(
            await transactions.run((unit) => store.jobInsert({ job: next, unit })),
            { id: next.id },
          );
        }
        await assert.rejects(
          () => store.relay(),
          (error: Error) => /replica\(s\) required/.test(error.message),
        );
        const [waiting] = await sql<{ count: number }[]>`
          select count(*)::int as count from kit_job_outbox where relayed_at is null`;
        assert.equal(waiting!.count, 5, "no row is marked relayed while no replica has it");
        nodes.thaw(replica);
        let relayed = 0;
        await until(
          async () => (relayed += await store.relay().catch(() => 0)) === 5,
          "the 5 rows relayed once the replica is back",
          { ms: 10_000 },
        );
        assert.deepEqual(
          (await redisStore.jobList()).map((j) => j.id).sort(),
          jobs.map((j) => j.id).sort(),
        );
      } finally {
        nodes.thaw(replica);
        await clear(client, prefix);
        client.disconnect();
      }
    }),
});

Deno.test({
  name:
    "RedisJobStore on a cluster: a master killed under enqueue load fails over to its replica, and every acknowledged job is kept and runs",
  ignore: skipWithoutRedisServer,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const nodes = await privateCluster();
    const client = await connect();
    const prefix = `{test:${crypto.randomUUID()}}:`;
    const master = await nodes.masterOf(`${prefix}all`);
    const replica = await nodes.replicaOf(master);
    const store = new RedisJobStore(tcpScripting(client, { logger: silent }), {
      prefix,
      timeoutMs: 1_000,
    });
    // The durability monitor watches the store's marker key, on the store's slot.
    const monitor = new RedisDurabilityMonitor(tcpScripting(client, { logger: silent }), {
      prefix,
      logger: silent,
    });
    const losses: RedisLoss[] = [];
    monitor.onLoss((loss) => losses.push(loss));
    await monitor.check();
    assert.deepEqual([monitor.state, losses], ["safe", ["new"]]);
    const acknowledged: string[] = [];
    let refused = 0;
    let killed = false;
    let afterKill = 0;
    let stop = false;
    const enqueuer = async (lane: number) => {
      for (let i = 0; !stop; i++) {
        const next = job(lane * 100_000 + i);
        try {
          await store.jobInsert({ job: next });
          acknowledged.push(next.id);
          if (killed) afterKill++;
        } catch (error) {
          if (
            !(error instanceof RedisUnavailableError) &&
            !/CLUSTERDOWN|MOVED|TRYAGAIN|refresh|Connection|ECONN/i.test(String(error))
          ) {
            throw error;
          }
          refused++;
          // Refused: not acknowledged. The lane retries at once (the client refreshes slots).
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    try {
      const lanes = [0, 1, 2, 3].map(enqueuer);
      await until(() => acknowledged.length >= 200, "200 enqueues acknowledged", { ms: 10_000 });
      await nodes.kill(master);
      killed = true;
      await until(
        async () => (await nodes.masterOf(`${prefix}all`).catch(() => 0)) === replica,
        `the replica on ${replica} promoted`,
        { ms: 20_000 },
      );
      // The promoted master has no replica: enqueues are refused (not acknowledged) until the
      // old master, started again, rejoins as its replica.
      await nodes.restart(master);
      await until(() => afterKill >= 200, "200 enqueues acknowledged after the fail-over", {
        ms: 20_000,
      });
      stop = true;
      await Promise.all(lanes);
      // The marker was replicated: the monitor sees another server run (a restart), not a loss.
      await monitor.check();
      assert.deepEqual([monitor.state, losses], ["safe", ["new", "restarted"]]);
      const kept = new Set((await store.jobList()).map((j) => j.id));
      const lost = acknowledged.filter((id) => !kept.has(id));
      assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged jobs lost`);
      // Every acknowledged job runs: claimed and completed on the promoted master.
      const ran = new Set<string>();
      const now = new Date(Date.parse("2026-05-01T09:00:00.000Z"));
      for (;;) {
        const claimed = await store.jobClaim({
          queue: "scheduling",
          limit: 500,
          now,
          leases: {},
          defaultLeaseMs: 60_000,
        });
        if (claimed.length === 0) break;
        const done = await store.jobCompleteMany({
          jobs: claimed.map((c) => ({ id: c.id, leaseToken: c.leaseToken })),
          now,
        });
        assert.ok(done.every(Boolean));
        for (const c of claimed) ran.add(c.id);
      }
      assert.deepEqual(acknowledged.filter((id) => !ran.has(id)), []);
      console.log(
        `fail-over: ${acknowledged.length} acknowledged (${afterKill} after the kill), ${refused} refused, 0 lost`,
      );
    } finally {
      stop = true;
      await clear(client, prefix);
      client.disconnect();
    }
  },
});

Deno.test({
  name: "the private Redis Cluster is stopped (its PIDs only)",
  ignore: skipWithoutRedisServer,
  async fn() {
    if (started !== undefined) await (await started).close();
  },
});
