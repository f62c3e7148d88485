import { Redis as UpstashRedis } from "@upstash/redis";
import assert from "node:assert/strict";
import { userActor } from "@kit/kernel";
import { Redis as IORedis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { jobStoreContract } from "../testing.ts";
import { startUpstashRestBridge } from "../testing/upstash_rest_bridge.ts";
import { RedisJobStore, tcpScripting, upstashScripting } from "../redis.ts";

async function clear(redis: IORedis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

/** Runs `check` on a store over TCP under a fresh key prefix, then deletes its keys. */
async function withTcpStore(
  check: (store: RedisJobStore, redis: IORedis, prefix: string) => Promise<void>,
): Promise<void> {
  const redis = new IORedis(requireUrl("REDIS_URL"), { lazyConnect: true });
  await redis.connect();
  const prefix = `test:${crypto.randomUUID()}:`;
  try {
    await check(
      new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" }),
      redis,
      prefix,
    );
  } finally {
    await clear(redis, prefix);
    redis.disconnect();
  }
}

jobStoreContract({
  name: "RedisJobStore over TCP (ioredis)",
  ignore: ignoreWithout("REDIS_URL"),
  async open() {
    const redis = new IORedis(requireUrl("REDIS_URL"), { lazyConnect: true });
    await redis.connect();
    const prefix = `test:${crypto.randomUUID()}:`;
    return {
      store: new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" }),
      async close() {
        await clear(redis, prefix);
        redis.disconnect();
      },
    };
  },
});

jobStoreContract({
  name: "RedisJobStore over HTTP (@upstash/redis through a REST bridge)",
  ignore: ignoreWithout("REDIS_URL"),
  open: () => storeOverHttp(requireUrl("REDIS_URL")),
});

Deno.test({
  name:
    "RedisJobStore: a page reads at most 5,000 jobs, answering fewer than its limit with a cursor to read on",
  ignore: ignoreWithout("REDIS_URL"),
  fn: () =>
    withTcpStore(async (store) => {
      const t0 = Date.parse("2026-05-01T08:00:00.000Z");
      const job = (i: number, subject?: string) => ({
        id: `0193${String(i).padStart(4, "0")}-0000-7000-8000-000000000000`,
        name: "scheduling.clear-calendar",
        queue: "scheduling",
        payload: {},
        actor: userActor("u1"),
        correlationId: "c",
        maxAttempts: 1,
        runAt: new Date(t0),
        createdAt: new Date(t0 + i),
        ...(subject === undefined ? {} : { subject }),
      });
      await store.jobInsert({ job: job(0, "needle") });
      for (let from = 1; from <= 5_000; from += 1_000) {
        await store.jobInsertMany({
          jobs: Array.from({ length: 1_000 }, (_, i) => job(from + i)),
        });
      }
      const first = await store.jobPage({ reach: {}, search: { subject: "needle" }, limit: 10 });
      assert.deepEqual(first.jobs, []);
      assert.equal(typeof first.next, "string");
      const second = await store.jobPage({
        reach: {},
        search: { subject: "needle" },
        limit: 10,
        after: first.next!,
      });
      assert.deepEqual(second.jobs.map((j) => j.id), [job(0).id]);
      assert.equal(second.next, undefined);
      const counts = await store.jobCounts({ reach: {} });
      assert.equal(counts[0]?.waiting, 5_001);
    }),
});

Deno.test({
  name:
    "RedisJobStore: activity counts jobs completed together, in a hash per minute that expires after 25 hours",
  ignore: ignoreWithout("REDIS_URL"),
  fn: () =>
    withTcpStore(async (store, redis, prefix) => {
      const t0 = Date.parse("2026-05-01T08:00:00.000Z");
      const jobs = [1, 2, 3].map((i) => ({
        id: `0194${String(i).padStart(4, "0")}-0000-7000-8000-000000000000`,
        name: "scheduling.clear-calendar",
        queue: "scheduling",
        payload: {},
        actor: userActor("u1"),
        tenantId: "t1",
        correlationId: "c",
        maxAttempts: 1,
        runAt: new Date(t0),
        createdAt: new Date(t0 + i),
      }));
      await store.jobInsertMany({ jobs });
      const claimed = await store.jobClaim({
        queue: "scheduling",
        limit: 3,
        now: new Date(t0),
        leases: {},
        defaultLeaseMs: 1_000,
      });
      await store.jobCompleteMany({
        jobs: claimed.map((c) => ({ id: c.id, leaseToken: c.leaseToken })),
        now: new Date(t0 + 500),
      });
      const [activity] = await store.jobActivity({
        reach: { tenantId: "t1" },
        since: new Date(t0),
        bucketMs: 60_000,
        buckets: 1,
      });
      assert.deepEqual(activity?.buckets.map((b) => b.succeeded), [3]);
      const ttl = await redis.ttl(`${prefix}activity:${t0}`);
      assert.ok(ttl > 89_000 && ttl <= 90_000, `ttl ${ttl}`);
    }),
});

/** Text that JSON escapes, or that Lua's cjson and JavaScript write differently. */
const awkward = 'é ü 日本 🙂 "quoted" \\back\\ /slash/ \n\t\u0001 \u2028\u2029 {"not":"json"';

async function claimRoundTrip(store: RedisJobStore): Promise<void> {
  const t0 = Date.parse("2026-05-01T08:00:00.000Z");
  const job = {
    id: "01950000-0000-7000-8000-000000000000",
    name: `scheduling.${awkward}`,
    queue: "scheduling",
    payload: { text: awkward, n: 1.5, list: [awkward, null, true], nested: { "é": awkward } },
    actor: userActor(awkward),
    tenantId: awkward,
    correlationId: awkward,
    subject: awkward,
    idempotencyKey: awkward,
    traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    maxAttempts: 3,
    runAt: new Date(t0),
    createdAt: new Date(t0),
  };
  await store.jobInsert({ job });
  const [claimed, ...more] = await store.jobClaim({
    queue: "scheduling",
    limit: 5,
    now: new Date(t0),
    leases: { [job.name]: 60_000 },
    defaultLeaseMs: 1_000,
    workerId: awkward,
  });
  assert.deepEqual(more, []);
  assert.deepEqual(claimed?.payload, job.payload);
  assert.deepEqual(claimed?.actor, job.actor);
  for (const field of ["name", "tenantId", "correlationId", "subject", "idempotencyKey"] as const) {
    assert.equal(claimed?.[field], job[field], field);
  }
  assert.equal(claimed?.workerId, awkward);
  assert.equal(claimed?.traceparent, job.traceparent);
  assert.equal(claimed?.attempt, 1);
  assert.equal(claimed?.status, "running");
  assert.equal(claimed?.leaseEnded, undefined);
  assert.deepEqual(
    await store.jobClaim({
      queue: "scheduling",
      limit: 5,
      now: new Date(t0),
      leases: {},
      defaultLeaseMs: 1_000,
    }),
    [],
    "an empty claim answers no job",
  );
  // The lease is the job's own (60 s): not taken back at 59 s, taken back (leaseEnded) after it.
  const early = await store.jobClaim({
    queue: "scheduling",
    limit: 5,
    now: new Date(t0 + 59_000),
    leases: {},
    defaultLeaseMs: 1_000,
  });
  assert.deepEqual(early, []);
  const [again] = await store.jobClaim({
    queue: "scheduling",
    limit: 5,
    now: new Date(t0 + 60_000),
    leases: {},
    defaultLeaseMs: 1_000,
  });
  assert.equal(again?.leaseEnded, true);
  assert.equal(again?.attempt, 2);
  assert.notEqual(again?.leaseToken, claimed?.leaseToken);
  assert.deepEqual(again?.payload, job.payload);
}

Deno.test({
  name:
    "RedisJobStore: a claim answers every field as written (any text JSON escapes), its lease the job's own, over TCP",
  ignore: ignoreWithout("REDIS_URL"),
  fn: () => withTcpStore((store) => claimRoundTrip(store)),
});

Deno.test({
  name:
    "RedisJobStore: a claim answers every field as written (any text JSON escapes), over HTTP (@upstash/redis)",
  ignore: ignoreWithout("REDIS_URL"),
  async fn() {
    const { store, close } = await storeOverHttp(requireUrl("REDIS_URL"));
    try {
      await claimRoundTrip(store);
    } finally {
      await close();
    }
  },
});

/** A store on a key prefix of its own over HTTP (@upstash/redis through a REST bridge to `url`). */
async function storeOverHttp(
  url: string,
): Promise<{ store: RedisJobStore; close(): Promise<void> }> {
  const bridge = await startUpstashRestBridge(url);
  const upstash = new UpstashRedis({
    url: bridge.url,
    token: bridge.token,
    automaticDeserialization: false,
    enableTelemetry: false,
  });
  const prefix = `test:${crypto.randomUUID()}:`;
  return {
    store: new RedisJobStore(upstashScripting(upstash), { prefix, requireDurability: "off" }),
    async close() {
      const redis = new IORedis(url);
      await clear(redis, prefix);
      redis.disconnect();
      await bridge.close();
    },
  };
}
