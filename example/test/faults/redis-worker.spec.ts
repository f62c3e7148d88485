/**
 * The worker alone (`apps/worker`) runs the jobs of the job store its configuration names: with
 * `REDIS_URL`, the clearances the API (`JOBS=off`) enqueues on Redis are run by the worker, and
 * the worker's readiness is red while that Redis is not durable.
 */
import assert from "node:assert/strict";
import { Redis as IORedis } from "ioredis";
import { withPrivatePostgres } from "../../../test_support/private_postgres.ts";
import { skipWithoutRedisServer, startPrivateRedis } from "../../../test_support/private_redis.ts";
import {
  type AppProcess,
  noPrivatePostgres,
  openCalendar,
  practitioner,
  send,
  startApp,
  startWorker,
} from "./fault-app.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readiness(process: AppProcess): Promise<number> {
  const response = await fetch(`${process.base}/health/ready`);
  await response.body?.cancel();
  return response.status;
}

async function until(what: string, test: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms: ${what}`);
    await pause(200);
  }
}

Deno.test({
  name:
    "apps/worker with REDIS_URL runs the jobs the API enqueues on Redis, and is not ready while Redis is not durable",
  ignore: noPrivatePostgres || skipWithoutRedisServer,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withPrivatePostgres(async (server) => {
      const redisServer = await startPrivateRedis(["--appendonly", "yes"]);
      const env = { REDIS_URL: redisServer.url, DATABASE_POOL_SIZE: "4" };
      const api = await startApp(server, { ...env, JOBS: "off" });
      const worker = await startWorker(server, env);
      const client = new IORedis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      try {
        await openCalendar(api, "worker-redis");
        const ids: string[] = [];
        for (let n = 0; n < 20; n++) {
          const at = Date.UTC(2090, 0, 1) + n * 7_200_000;
          const answer = await send(api, "POST", "/calendars/worker-redis/clearances", {
            as: practitioner,
            body: {
              from: new Date(at).toISOString(),
              until: new Date(at + 3_600_000).toISOString(),
              reason: `worker ${n}`,
            },
          });
          assert.equal(answer.status, 202, JSON.stringify(answer.body));
          ids.push(answer.body.id as string);
        }
        await until("the worker ran every job enqueued on Redis", async () => {
          const states = await Promise.all(
            ids.map((id) => client.hget(`kit:jobs:job:${id}`, "st")),
          );
          return states.every((state) => state === "succeeded");
        });
        assert.equal(await readiness(worker), 200);

        await client.config("SET", "appendonly", "no");
        await until("the worker's readiness red", async () => await readiness(worker) === 503);
        await client.config("SET", "appendonly", "yes");
        await until(
          "the worker's readiness green again",
          async () => await readiness(worker) === 200,
        );
      } finally {
        client.disconnect();
        await api.stop();
        await worker.stop();
        await redisServer.close();
      }
    }),
});
