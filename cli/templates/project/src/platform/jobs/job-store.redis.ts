import { InMemoryJobStore, type JobStore } from "@kit/jobs";
import type { Logger } from "@kit/kernel";
import type { PlatformConfig } from "../config.ts";
import type { Database } from "../database/database.ts";
import { openRedisJobs } from "./redis-job-store.ts";

/** A job store, named for the start-up line, its readiness check if any, and how to release it. */
export interface OpenedJobStore {
  readonly store: JobStore;
  readonly name: string;
  /** Rejects while the store cannot keep what is enqueued (its server unreachable, not durable). */
  readonly check?: () => Promise<void>;
  close(): Promise<void>;
}

const inMemory = (): OpenedJobStore => ({
  store: new InMemoryJobStore(),
  name: "in memory",
  close: () => Promise.resolve(),
});

/**
 * The job store of the project's queue (redis): on the Redis server at `REDIS_URL`, fed
 * through the database's outbox (see `openRedisJobs`), when the platform runs on a database;
 * in memory without either. Refuses to start with `REDIS_URL` alone: a job enqueued straight
 * to Redis could be lost after its command committed.
 */
export async function openJobStore(
  sql: Database | undefined,
  config: PlatformConfig,
  logger?: Logger,
): Promise<OpenedJobStore> {
  const url = config.redisUrl;
  if (sql === undefined && !url) return inMemory();
  if (!url) throw new Error("REDIS_URL is not set: the project's queue is redis");
  if (sql === undefined) {
    throw new Error(
      "DATABASE_URL is not set: the queue redis enqueues through the database's outbox, so that a job exists exactly when its command commits",
    );
  }
  const jobs = await openRedisJobs(sql, url, config, logger);
  return {
    store: jobs.store,
    name: "Redis (through the outbox)",
    check: jobs.check,
    close: () => jobs.close(),
  };
}
