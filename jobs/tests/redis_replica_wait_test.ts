/**
 * The metric of the replica wait: a store whose adapter waits for a replica (`tcpScripting`'s
 * `replicas`) refuses an enqueue, a revival and a cancellation with a 503 when no replica has the
 * write in time, and counts each in `kit.jobs.replica_wait.failed` by operation. Provoked on a
 * private redis-server of this file, which has no replica: `WAIT 1` answers 0.
 */
import assert from "node:assert/strict";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { Redis as IORedis } from "ioredis";
import { isRefusal } from "@kit/kernel";
import type { NewJob } from "../store.ts";
import { skipWithoutRedisServer, startPrivateRedis } from "../../test_support/private_redis.ts";
import {
  failFastRedisOptions,
  RedisJobStore,
  RedisUnavailableError,
  tcpScripting,
} from "../redis.ts";
import { TestReader } from "../../test_support/metric_reader.ts";

const silent = { log() {} };

function newJob(i: number, maxAttempts = 3): NewJob {
  return {
    id: crypto.randomUUID(),
    name: "send",
    queue: "default",
    payload: { i },
    actor: { kind: "system", id: "test", roles: [], tenants: [], attributes: {} },
    correlationId: `c${i}`,
    maxAttempts,
    runAt: new Date(0),
    createdAt: new Date(0),
  };
}

function isReplicaRefusal(error: unknown): boolean {
  return error instanceof RedisUnavailableError && isRefusal(error, "SERVICE_UNAVAILABLE") &&
    error.status === 503 &&
    /0 of the 1 replica\(s\) required had the write within 50 ms/.test(
      String((error as { reason?: string }).reason ?? "") + error.message,
    );
}

async function points(
  reader: TestReader,
  name: string,
): Promise<{ attributes: unknown; value: unknown }[]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.filter((scope) => scope.scope.name === "kit")
    .flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }))
    .sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)));
}

Deno.test({
  name:
    "A write no replica acknowledged in time (WAIT) is refused 503 and counted in kit.jobs.replica_wait.failed by operation: enqueue, revive, cancel; other operations and a store waiting for no replica count nothing",
  ignore: skipWithoutRedisServer,
  async fn() {
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = new IORedis(server.url, { ...failFastRedisOptions(), lazyConnect: true });
    await redis.connect();
    const reader = new TestReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const prefix = `test:${crypto.randomUUID()}:`;
    try {
      // The same keys through two adapters: one acknowledging on the master alone, one waiting
      // for a replica this server does not have.
      const plain = new RedisJobStore(
        tcpScripting(redis, { logger: silent, meterProvider }),
        { prefix, listen: false },
      );
      const waiting = new RedisJobStore(
        tcpScripting(redis, { logger: silent, meterProvider, replicas: 1, replicaTimeoutMs: 50 }),
        { prefix, listen: false },
      );
      const now = new Date(1_000);
      const waitingJob = newJob(1);
      const dying = newJob(2, 1);
      await plain.jobInsertMany({ jobs: [waitingJob, dying] });
      const claimed = await plain.jobClaim({
        queue: "default",
        limit: 10,
        now,
        leases: {},
        defaultLeaseMs: 60_000,
      });
      const held = claimed.find((job) => job.id === dying.id)!;
      await plain.jobFail({
        id: held.id,
        leaseToken: held.leaseToken,
        now,
        errorCode: "BOOM",
        errorMessage: "boom",
      });
      await plain.jobRelease({
        id: waitingJob.id,
        leaseToken: claimed.find((job) => job.id === waitingJob.id)!.leaseToken,
        now,
      });
      assert.deepEqual(await points(reader, "kit.jobs.replica_wait.failed"), []);

      // Reads and the worker's writes do not wait for replicas: answered, nothing counted.
      assert.equal((await waiting.jobFind({ id: dying.id, reach: {} }))?.status, "dead");
      assert.equal((await waiting.jobList()).length, 2);

      await assert.rejects(() => waiting.jobInsert({ job: newJob(3) }), isReplicaRefusal);
      await assert.rejects(
        () => waiting.jobRetryDead({ id: dying.id, reach: {}, now }),
        isReplicaRefusal,
      );
      await assert.rejects(
        () => waiting.jobCancel({ id: waitingJob.id, reach: {}, now }),
        isReplicaRefusal,
      );
      await assert.rejects(() => waiting.jobInsert({ job: newJob(4) }), isReplicaRefusal);
      assert.deepEqual(await points(reader, "kit.jobs.replica_wait.failed"), [
        { attributes: { operation: "cancel" }, value: 1 },
        { attributes: { operation: "enqueue" }, value: 2 },
        { attributes: { operation: "revive" }, value: 1 },
      ]);
    } finally {
      await meterProvider.shutdown();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await server.close();
    }
  },
});
