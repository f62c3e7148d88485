import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { isRefusal } from "@kit/kernel";
import type { UnitOfWork } from "@kit/kernel/internal";
import type { NewJob } from "../store.ts";
import { skipWithoutRedisServer, startPrivateRedis } from "../../test_support/private_redis.ts";
import {
  failFastRedisOptions,
  RedisJobStore,
  RedisUnavailableError,
  tcpScripting,
} from "../redis.ts";

const ignore = skipWithoutRedisServer;

function newJob(i: number): NewJob {
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
  };
}

function isUnavailable(error: unknown): boolean {
  return error instanceof RedisUnavailableError && isRefusal(error, "SERVICE_UNAVAILABLE") &&
    error.status === 503;
}

Deno.test({
  name: "Redis killed (-9) and restarted with appendfsync always: every acknowledged job is found",
  ignore,
  async fn() {
    const server = await startPrivateRedis(["--appendonly", "yes", "--appendfsync", "always"]);
    const redis = new IORedis(server.url, { ...failFastRedisOptions(), lazyConnect: true });
    await redis.connect();
    try {
      const store = new RedisJobStore(tcpScripting(redis), { listen: false });
      const jobs = Array.from({ length: 500 }, (_, i) => newJob(i));
      for (let i = 0; i < jobs.length; i += 50) {
        await store.jobInsertMany({ jobs: jobs.slice(i, i + 50) });
      }
      await server.stop("SIGKILL");
      await server.start();
      const again = new IORedis(server.url, { ...failFastRedisOptions(), lazyConnect: true });
      await again.connect();
      try {
        const after = new RedisJobStore(tcpScripting(again), { listen: false });
        const found = await after.jobList();
        assert.equal(found.length, jobs.length);
        assert.deepEqual(new Set(found.map((j) => j.id)), new Set(jobs.map((j) => j.id)));
        assert.ok(found.every((j) => j.status === "waiting"));
      } finally {
        again.disconnect();
      }
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
});

Deno.test({
  name: "Redis down: enqueue, find and cancel fail within the time-out with SERVICE_UNAVAILABLE",
  ignore,
  async fn() {
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    const redis = new IORedis(server.url, {
      ...failFastRedisOptions({ connectTimeoutMs: 500 }),
      lazyConnect: true,
    });
    await redis.connect();
    try {
      const store = new RedisJobStore(tcpScripting(redis), { listen: false, timeoutMs: 1_000 });
      await store.jobInsert({ job: newJob(0) });
      await server.stop("SIGKILL");
      const started = performance.now();
      await assert.rejects(store.jobInsert({ job: newJob(1) }), isUnavailable);
      await assert.rejects(store.jobFind({ id: "x", reach: {} }), isUnavailable);
      await assert.rejects(store.jobCancel({ id: "x", reach: {}, now: new Date() }), isUnavailable);
      let staged = 0;
      const unit = { whenCommitted: () => staged++ } as unknown as UnitOfWork;
      await assert.rejects(store.jobInsert({ job: newJob(2), unit }), isUnavailable);
      assert.equal(staged, 0, "no job is acknowledged for writing after commit");
      assert.ok(performance.now() - started < 5_000, "every call failed within its time-out");
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
});

Deno.test({
  name:
    "Redis never reached (nothing listens): the first enqueue fails fast, no durability verdict kept",
  ignore,
  async fn() {
    const server = await startPrivateRedis(["--appendonly", "yes"]);
    await server.stop("SIGKILL");
    const redis = new IORedis(server.url, failFastRedisOptions({ connectTimeoutMs: 500 }));
    try {
      const store = new RedisJobStore(tcpScripting(redis), { listen: false, timeoutMs: 1_000 });
      await assert.rejects(store.jobInsert({ job: newJob(0) }), isUnavailable);
      await server.start();
      for (let i = 0; i < 40 && redis.status !== "ready"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const job = newJob(1);
      await store.jobInsert({ job });
      assert.equal((await store.jobFind({ id: job.id, reach: {} }))?.status, "waiting");
    } finally {
      redis.disconnect();
      await server.close();
    }
  },
});
