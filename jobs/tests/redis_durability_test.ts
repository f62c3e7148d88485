import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import type { NewJob } from "../store.ts";
import { skipWithoutRedisServer, startPrivateRedis } from "../../test_support/private_redis.ts";
import {
  checkRedisDurability,
  RedisJobStore,
  RedisNotDurableError,
  type RedisScripting,
  tcpScripting,
} from "../redis.ts";

const ignore = skipWithoutRedisServer;

async function onServer(
  args: readonly string[],
  body: (redis: IORedis) => Promise<void>,
): Promise<void> {
  const server = await startPrivateRedis(args);
  const redis = new IORedis(server.url);
  try {
    await body(redis);
  } finally {
    redis.disconnect();
    await server.close();
  }
}

const job: NewJob = {
  id: crypto.randomUUID(),
  name: "send",
  queue: "default",
  payload: {},
  actor: { kind: "system" as const, id: "test", roles: [], tenants: [], attributes: {} },
  correlationId: "c",
  maxAttempts: 3,
  runAt: new Date(0),
  createdAt: new Date(0),
};

Deno.test({
  name: "Redis without the append-only file: the store refuses its first command, naming it",
  ignore,
  fn: () =>
    onServer([], async (redis) => {
      const store = new RedisJobStore(tcpScripting(redis), { prefix: "t:" });
      await assert.rejects(
        store.jobInsert({ job }),
        (error: unknown) =>
          error instanceof RedisNotDurableError &&
          /appendonly is 'no' \(needs 'yes'\)/.test(error.message) &&
          error.findings.length === 1,
      );
      assert.equal(await redis.exists(`t:job:${job.id}`), 0, "nothing was written");
    }),
});

Deno.test({
  name: "Redis with appendonly yes, appendfsync everysec, noeviction: the store writes",
  ignore,
  fn: () =>
    onServer(["--appendonly", "yes", "--appendfsync", "everysec"], async (redis) => {
      assert.deepEqual(await checkRedisDurability(tcpScripting(redis)), []);
      const store = new RedisJobStore(tcpScripting(redis), { prefix: "t:" });
      await store.jobInsert({ job });
      assert.equal((await store.jobFind({ id: job.id, reach: {} }))?.status, "waiting");
    }),
});

Deno.test({
  name: "Redis with appendfsync no and an eviction policy: every setting is named",
  ignore,
  fn: () =>
    onServer(
      ["--appendonly", "yes", "--appendfsync", "no", "--maxmemory-policy", "allkeys-lru"],
      async (redis) => {
        const findings = await checkRedisDurability(tcpScripting(redis));
        assert.deepEqual(findings.map((f) => [f.setting, f.found]), [
          ["appendfsync", "no"],
          ["maxmemory-policy", "allkeys-lru"],
        ]);
      },
    ),
});

Deno.test({
  name: "Redis with CONFIG disabled (managed): the check reads INFO persistence and memory",
  ignore,
  fn: () =>
    onServer(["--maxmemory-policy", "volatile-lru"], async (redis) => {
      const scripting: RedisScripting = {
        ...tcpScripting(redis),
        config: () => Promise.reject(new Error("ERR unknown command 'CONFIG'")),
      };
      const findings = await checkRedisDurability(scripting);
      assert.deepEqual(findings.map((f) => [f.setting, f.found]), [
        ["appendonly", "no"],
        ["maxmemory-policy", "volatile-lru"],
      ]);
    }),
});

Deno.test({
  name: "requireDurability 'warn' logs one line and writes; 'off' does not look",
  ignore,
  fn: () =>
    onServer([], async (redis) => {
      const lines: string[] = [];
      const warned = new RedisJobStore(tcpScripting(redis), {
        prefix: "w:",
        requireDurability: "warn",
        warn: (line) => lines.push(line),
      });
      await warned.jobInsert({ job });
      await warned.jobFind({ id: job.id, reach: {} });
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /appendonly is 'no'/);
      const off = new RedisJobStore(tcpScripting(redis), {
        prefix: "o:",
        requireDurability: "off",
      });
      await off.jobInsert({ job });
      assert.equal((await off.jobFind({ id: job.id, reach: {} }))?.id, job.id);
    }),
});

Deno.test({
  name: "Redis refusing CONFIG and INFO: the store warns that it cannot tell, and writes",
  ignore,
  fn: () =>
    onServer([], async (redis) => {
      const tcp = tcpScripting(redis);
      const scripting: RedisScripting = {
        ...tcp,
        config: () => Promise.reject(new Error("ERR unknown command 'CONFIG'")),
        eval: (script, keys, args) =>
          script.includes("'INFO'")
            ? Promise.reject(new Error("ERR This Redis command is not allowed from script"))
            : tcp.eval(script, keys, args),
      };
      const lines: string[] = [];
      const store = new RedisJobStore(scripting, { prefix: "u:", warn: (l) => lines.push(l) });
      await store.jobInsert({ job });
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /appendonly is 'unknown/);
    }),
});
