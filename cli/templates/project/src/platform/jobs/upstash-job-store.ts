import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import { RedisJobStore, upstashScripting } from "@kit/jobs/redis";
import { Redis } from "@upstash/redis";
import type { PlatformConfig } from "../config.ts";

/**
 * The job store of a Worker, which only enqueues (a Worker runs no loop; `apps/worker` or the
 * API on Deno or Node runs the jobs): Upstash Redis over HTTP (`UPSTASH_REDIS_REST_URL`,
 * `UPSTASH_REDIS_REST_TOKEN`), the Redis the Deno or Node process reads through `REDIS_URL`
 * (queue redis). Without them, in memory: jobs enqueued there are never run.
 */
export function openUpstashJobStore(config: PlatformConfig): { store: JobStore; name: string } {
  if (config.upstash === undefined) return { store: new InMemoryJobStore(), name: "in memory" };
  const redis = new Redis({ ...config.upstash, automaticDeserialization: false });
  return {
    store: new RedisJobStore(upstashScripting(redis), {
      requireDurability: config.redisDurability,
      prefix: config.redisPrefix,
    }),
    name: "Upstash Redis",
  };
}
