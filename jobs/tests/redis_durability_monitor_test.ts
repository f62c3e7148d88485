import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { isRefusal } from "@kit/kernel";
import type { LogRecord } from "@kit/kernel/logging";
import type { NewJob } from "../store.ts";
import {
  type PrivateRedis,
  skipWithoutRedisServer,
  startPrivateRedis,
} from "../../test_support/private_redis.ts";
import {
  failFastRedisOptions,
  RedisDurabilityMonitor,
  type RedisDurabilityState,
  RedisJobStore,
  type RedisLoss,
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

interface Watched {
  readonly server: PrivateRedis;
  readonly redis: IORedis;
  readonly monitor: RedisDurabilityMonitor;
  readonly logged: LogRecord[];
  readonly losses: RedisLoss[];
}

/** A private server, a client that fails fast, and a monitor that looks only when asked. */
async function watching(args: readonly string[], body: (w: Watched) => Promise<void>) {
  const server = await startPrivateRedis(args);
  const redis = new IORedis(server.url, {
    ...failFastRedisOptions({ connectTimeoutMs: 500 }),
    lazyConnect: true,
  });
  redis.on("error", () => {});
  await redis.connect();
  const logged: LogRecord[] = [];
  const losses: RedisLoss[] = [];
  const monitor = new RedisDurabilityMonitor(tcpScripting(redis), {
    prefix: "t:",
    timeoutMs: 1_000,
    logger: { log: (record) => logged.push(record) },
  });
  monitor.onLoss((loss) => losses.push(loss));
  try {
    await body({ server, redis, monitor, logged, losses });
  } finally {
    redis.disconnect();
    await server.close();
  }
}

/** Looks every 100 ms (a restarted server takes a moment to answer), 5 s at most. */
async function lookUntil(monitor: RedisDurabilityMonitor, state: RedisDurabilityState) {
  for (let i = 0; i < 50; i++) {
    await monitor.check();
    if (monitor.state === state) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const codes = (logged: readonly LogRecord[]) => logged.map((r) => `${r.component} ${r.code}`);

function isUnavailable(error: unknown): boolean {
  return isRefusal(error, "SERVICE_UNAVAILABLE") &&
    (error as { retryAfterSeconds?: number }).retryAfterSeconds === 5;
}

Deno.test({
  name:
    "RedisDurabilityMonitor: persistence turned off is not_durable (ready refused, logged once) and recovers by itself",
  ignore,
  fn: () =>
    watching(["--appendonly", "yes"], async ({ redis, monitor, logged }) => {
      await monitor.check();
      assert.equal(monitor.state, "safe");
      await monitor.ready();
      await redis.config("SET", "appendonly", "no");
      await monitor.check();
      await monitor.check();
      assert.equal(monitor.state, "not_durable");
      await assert.rejects(monitor.ready(), isUnavailable);
      assert.deepEqual(codes(logged), ["redis REDIS_NOT_DURABLE"], "one line, not one a look");
      assert.match(logged[0]!.message, /appendonly is 'no'/);
      await redis.config("SET", "appendonly", "yes");
      await monitor.check();
      assert.equal(monitor.state, "safe");
      assert.deepEqual(codes(logged), ["redis REDIS_NOT_DURABLE", "redis REDIS_DURABLE"]);
    }),
});

Deno.test({
  name:
    "RedisDurabilityMonitor: data lost (the marker gone) is told to its listeners and logged as REDIS_DATA_LOST",
  ignore,
  fn: () =>
    watching(["--appendonly", "yes"], async ({ redis, monitor, logged, losses }) => {
      await monitor.check();
      assert.deepEqual(losses, ["new"], "a server without a marker may have lost data unseen");
      await redis.flushall();
      await monitor.check();
      assert.equal(monitor.state, "data_lost");
      await assert.rejects(monitor.ready(), isUnavailable);
      assert.deepEqual(losses, ["new", "lost"]);
      assert.deepEqual(codes(logged), ["redis REDIS_DATA_LOST"]);
      await monitor.check();
      assert.equal(monitor.state, "safe", "the new marker is kept: safe again");
    }),
});

Deno.test({
  name:
    "RedisDurabilityMonitor: killed, unavailable; restarted from its append-only file, a restart (its last writes may be lost)",
  ignore,
  fn: () =>
    watching(["--appendonly", "yes"], async ({ server, monitor, logged, losses }) => {
      await monitor.check();
      await server.stop("SIGKILL");
      await assert.rejects(monitor.probe(), isUnavailable, "a probe looks: red at once");
      assert.equal(monitor.state, "unavailable");
      await assert.rejects(monitor.ready(), isUnavailable);
      await server.start();
      await lookUntil(monitor, "safe");
      assert.equal(monitor.state, "safe");
      assert.deepEqual(losses, ["new", "restarted"]);
      assert.deepEqual(codes(logged), ["redis REDIS_UNAVAILABLE", "redis REDIS_DURABLE"]);
    }),
});

Deno.test({
  name:
    "RedisDurabilityMonitor: restarted without persistence, data lost and not durable: the store refuses enqueues with 503, claims go on",
  ignore,
  fn: () =>
    watching(["--appendonly", "yes"], async ({ server, redis, monitor, losses }) => {
      const store = new RedisJobStore(tcpScripting(redis), {
        prefix: "t:",
        listen: false,
        durability: monitor,
      });
      await store.jobInsert({ job: newJob(1) });
      await server.stop("SIGTERM");
      await server.start(["--appendonly", "no"]);
      await lookUntil(monitor, "data_lost");
      assert.deepEqual(losses, ["new", "lost"]);
      await monitor.check();
      assert.equal(monitor.state, "not_durable");
      await assert.rejects(store.jobInsert({ job: newJob(2) }), isUnavailable);
      const claimed = await store.jobClaim({
        queue: "default",
        now: new Date(),
        limit: 1,
        defaultLeaseMs: 1_000,
        leases: {},
      });
      assert.deepEqual(claimed, [], "the job was lost with the data; claims still answer");
    }),
});
