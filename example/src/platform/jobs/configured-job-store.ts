import type { HealthCheck, Logger } from "@kit/kernel";
import type { JobStore } from "@kit/jobs";
import { RedisJobStore, upstashScripting } from "@kit/jobs/redis";
import { Redis as UpstashRedis } from "@upstash/redis";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";
import { openRedisJobs } from "./redis-job-store.ts";

/** A Redis job store the configuration names, its readiness check, and how to release it. */
export interface ConfiguredJobStore {
  readonly store: JobStore;
  readonly check: HealthCheck;
  /** `Redis` or `Upstash Redis`, for the start-up line. */
  readonly name: string;
  close(): Promise<void>;
}

/**
 * The Redis job store the configuration names, beside the example's database queue, for the API
 * and the worker alike (so that the worker runs the jobs the API enqueues):
 *
 * - `UPSTASH_REDIS_REST_URL` and `UPSTASH_REDIS_REST_TOKEN`: Upstash's REST API, enqueued straight
 *   to Upstash (as on Workers, where no relay can run; Upstash keeps its data itself and allows
 *   neither `CONFIG` nor the monitor's script), checked by a PING;
 * - else `REDIS_URL`: that Redis, fed through the database's outbox and watched by a durability
 *   monitor (`openRedisJobs`);
 * - else undefined: the jobs stay on PostgreSQL.
 *
 * Its lines go to `logger` (default: the console's).
 */
export async function configuredRedisJobs(
  sql: Database,
  config: PlatformConfig,
  logger?: Logger,
): Promise<ConfiguredJobStore | undefined> {
  if (config.upstash) {
    const redis = new UpstashRedis({ ...config.upstash, automaticDeserialization: false });
    return {
      store: new RedisJobStore(upstashScripting(redis), {
        requireDurability: config.redisDurability,
        prefix: config.redisPrefix,
      }),
      check: () => redis.ping(),
      name: "Upstash Redis",
      close: () => Promise.resolve(),
    };
  }
  if (!config.redisUrl) return undefined;
  return { ...await openRedisJobs(sql, config.redisUrl, config, logger), name: "Redis" };
}
