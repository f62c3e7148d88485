import assert from "node:assert/strict";
import { consoleLogger, userActor } from "@kit/kernel";
import type { LogRecord } from "@kit/kernel/logging";
import { Redis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { failFastRedisOptions, tcpScripting } from "./adapters.ts";
import { RedisJobStore } from "./redis_job_store.ts";
import { RedisUnavailableError } from "./redis_unavailable.ts";

const silent = { log() {} };

Deno.test("tcpScripting() turns the client's error events into warn lines REDIS_UNAVAILABLE: no unhandled error event", async () => {
  // A port nothing listens on: every (re)connection fails and ioredis emits "error".
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const records: LogRecord[] = [];
  const written: string[] = [];
  const inner = consoleLogger({ format: "json", write: (line) => written.push(line) });
  const redis = new Redis({
    host: "127.0.0.1",
    port,
    ...failFastRedisOptions({ connectTimeoutMs: 200 }),
    retryStrategy: () => 20,
  });
  try {
    tcpScripting(redis, { logger: { log: (record) => (records.push(record), inner.log(record)) } });
    assert.ok(redis.listenerCount("error") > 0);
    const deadline = Date.now() + 10_000;
    while (records.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(records.length >= 3, `error events logged: ${records.length}`);
    for (const line of written.map((text) => JSON.parse(text))) {
      assert.deepEqual([line.level, line.component, line.code], [
        "warn",
        "redis",
        "REDIS_UNAVAILABLE",
      ]);
      assert.match(line.error, /ECONNREFUSED/);
      assert.doesNotMatch(line.error, /\n\s+at /, "no stack");
    }
  } finally {
    redis.disconnect();
  }
});

Deno.test("tcpScripting() refuses a negative or fractional replica count and a timeout below 1 ms, naming it", () => {
  const redis = new Redis({ lazyConnect: true });
  try {
    for (
      const [options, named] of [
        [{ replicas: -1 }, "replicas must be an integer >= 0, got -1"],
        [{ replicas: 1.5 }, "replicas must be an integer >= 0, got 1.5"],
        [{ replicaTimeoutMs: 0 }, "replicaTimeoutMs must be an integer >= 1, got 0"],
      ] as const
    ) {
      assert.throws(
        () => tcpScripting(redis, options),
        (error: Error) => error instanceof TypeError && error.message.includes(named),
      );
    }
  } finally {
    redis.disconnect();
  }
});

Deno.test({
  name:
    "tcpScripting({ replicas: 1 }) on a server without replicas acknowledges no enqueue nor cancellation (WAIT answers 0); claims and completions are not waited for",
  ignore: ignoreWithout("REDIS_URL"),
  async fn() {
    const redis = new Redis(requireUrl("REDIS_URL"));
    const prefix = `test:${crypto.randomUUID()}:`;
    try {
      const scripting = tcpScripting(redis, { replicas: 1, replicaTimeoutMs: 20, logger: silent });
      assert.equal(scripting.cluster, false);
      const store = new RedisJobStore(scripting, { prefix, requireDurability: "off" });
      const job = {
        id: crypto.randomUUID(),
        name: "scheduling.clear-calendar",
        queue: "scheduling",
        payload: {},
        actor: userActor("u1"),
        correlationId: "c",
        maxAttempts: 1,
        runAt: new Date(0),
        createdAt: new Date(0),
      };
      await assert.rejects(
        () => store.jobInsert({ job }),
        (error: Error) =>
          error instanceof RedisUnavailableError &&
          /0 of the 1 replica\(s\) required had the write within 20 ms/.test(error.message),
      );
      // Claims are not waited for: the job written (unacknowledged) is claimed.
      const claimed = await store.jobClaim({
        queue: "scheduling",
        limit: 1,
        now: new Date(1),
        leases: {},
        defaultLeaseMs: 1_000,
      });
      assert.deepEqual(claimed.map((c) => c.id), [job.id]);
      assert.equal(
        await store.jobComplete({
          id: job.id,
          leaseToken: claimed[0]!.leaseToken,
          now: new Date(2),
        }),
        true,
        "a completion is not waited for",
      );
      // A cancellation is waited for, like an enqueue: the caller relies on it once told.
      const other = { ...job, id: crypto.randomUUID() };
      await store.jobInsert({ job: other }).catch(() => {});
      await assert.rejects(
        () => store.jobCancel({ id: other.id, reach: {}, now: new Date(3) }),
        /0 of the 1 replica\(s\) required/,
      );
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  },
});
