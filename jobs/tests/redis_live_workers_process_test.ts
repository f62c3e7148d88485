/**
 * The dashboard lists the live workers of a Redis store, tested with two worker processes, one
 * killed (`../testdata/live_workers_scenario.ts`), under a key prefix of its own.
 */
import { Redis as IORedis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { RedisJobStore, tcpScripting } from "../redis.ts";
import { liveWorkersScenario } from "../testdata/live_workers_scenario.ts";

Deno.test({
  name:
    "Redis: the dashboard lists two worker processes live; once one is killed, only the other, its job shown as the job of a worker gone, then back to waiting",
  ignore: ignoreWithout("REDIS_URL"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const url = requireUrl("REDIS_URL");
    const redis = new IORedis(url, { lazyConnect: true });
    await redis.connect();
    const prefix = `test:live-workers:${crypto.randomUUID()}:`;
    try {
      const store = new RedisJobStore(tcpScripting(redis), { prefix, requireDurability: "off" });
      const goneAfterMs = await liveWorkersScenario(store, {
        LIVE_WORKER_STORE: "redis",
        REDIS_URL: url,
        REDIS_PREFIX: prefix,
      });
      console.log(`w-a shown gone ${goneAfterMs} ms after SIGKILL (heartbeat ttl 3 s)`);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  },
});
