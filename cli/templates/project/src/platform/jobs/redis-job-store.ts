import { OutboxJobStore } from "@kit/jobs/outbox";
import {
  failFastRedisOptions,
  RedisDurabilityMonitor,
  RedisJobStore,
  tcpScripting,
} from "@kit/jobs/redis";
import type { Logger } from "@kit/kernel";
import { Redis } from "ioredis";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";

/** The Redis job store of a process, its readiness check, and how to release it. */
export interface RedisJobs {
  /** Enqueues in the command's transaction (the outbox), relayed to Redis after commit. */
  readonly store: OutboxJobStore;
  /** The readiness check: rejects while Redis is unreachable, not durable or lost its data. */
  readonly check: () => Promise<void>;
  /** Stops the relay and the monitor (after the application stopped), closes the connection. */
  close(): Promise<void>;
}

/**
 * The job store on the Redis at `url`, fed through the database's outbox: a job is written in
 * the transaction of the command that enqueues it (`kit_job_outbox`, so that it exists exactly
 * when the command commits), relayed to Redis once committed, and marked relayed only once Redis
 * acknowledged it (a failed relay is retried every second; the relay runs in every process that
 * opens the store). A monitor looks at Redis at start and every second: while Redis is
 * unreachable, not durable (`REDIS_DURABILITY`: refuse, the default; warn; off) or lost its
 * data, `check` rejects (readiness red), enqueues made outside a command answer 503 with
 * `Retry-After`, and the relay waits; jobs enqueued by commands are kept in PostgreSQL meanwhile.
 * When Redis lost its data or restarted, the jobs relayed in the last 15 minutes are relayed again
 * (a job Redis still holds is left as it is). Its lines (Redis unreachable, not durable, the
 * relay failing and recovering) go to `logger` (default: the console's).
 */
export async function openRedisJobs(
  sql: Database,
  url: string,
  config: PlatformConfig,
  logger?: Logger,
): Promise<RedisJobs> {
  const redis = new Redis(url, { ...failFastRedisOptions(), lazyConnect: true });
  // Down at start: the monitor says so (readiness red) and the client keeps reconnecting.
  await redis.connect().catch(() => {});
  const logged = logger ? { logger } : {};
  const scripting = tcpScripting(redis, logged);
  const prefix = config.redisPrefix;
  const monitor = new RedisDurabilityMonitor(scripting, {
    prefix,
    requirement: config.redisDurability,
    ...logged,
  });
  const store = new OutboxJobStore(
    new RedisJobStore(scripting, { prefix, durability: monitor }),
    sql,
    { durability: monitor, ...logged },
  );
  await monitor.check();
  monitor.start();
  store.start();
  return {
    store,
    check: () => monitor.probe(),
    async close() {
      await store.stop();
      await monitor.stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
