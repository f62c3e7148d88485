import { Redis as UpstashRedis } from "@upstash/redis";
import { Redis as IORedis } from "ioredis";
import { ignoreWithout, requireUrl } from "../../test_support/services.ts";
import { jobStoreContract } from "../testing.ts";
import { startUpstashRestBridge } from "../testing/upstash_rest_bridge.ts";
import { RedisJobStore, tcpScripting, upstashScripting } from "../redis.ts";

async function clear(redis: IORedis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
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
  async open() {
    const url = requireUrl("REDIS_URL");
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
  },
});
