/**
 * What the Redis-down tests run: a command that enqueues a clearance, and a private Redis server
 * (append-only, so that it can be killed and restarted) behind a fail-fast `RedisJobStore`.
 *
 * @module
 */
import {
  type BackgroundJobExecution,
  Command,
  Handles,
  type JobQueue,
  systemActor,
} from "@kit/kernel";
import type { EnqueueResult } from "@kit/kernel/types";
import { Redis as IORedis } from "ioredis";
import { type PrivateRedis, startPrivateRedis } from "../../test_support/private_redis.ts";
import { Background } from "../mod.ts";
import { failFastRedisOptions, RedisJobStore, tcpScripting } from "../redis.ts";

/** The job a clearance enqueues. */
@Background()
export class ClearCalendar {
  static readonly jobName = "calendars.clear";
  run(_payload: { calendarId: string }, _execution: BackgroundJobExecution): Promise<void> {
    return Promise.resolve();
  }
}

/** Enqueues `ClearCalendar` for one calendar. */
export class RequestClearance extends Command<EnqueueResult> {
  constructor(readonly calendarId: string) {
    super(systemActor);
  }
}

/** Handles `RequestClearance` with the application's `JobQueue`. */
@Handles(RequestClearance)
export class RequestClearanceHandler {
  constructor(private readonly jobs: JobQueue) {}
  handle(command: RequestClearance): Promise<EnqueueResult> {
    return this.jobs.enqueue(ClearCalendar, { calendarId: command.calendarId });
  }
}

/** A private Redis server, a client of it that fails fast, and a store over that client. */
export interface RedisToKill {
  readonly server: PrivateRedis;
  readonly redis: IORedis;
  readonly store: RedisJobStore;
}

/** Starts a private Redis and runs `work` with it; disconnects and removes the server after. */
export async function withRedisToKill(work: (redis: RedisToKill) => Promise<void>): Promise<void> {
  const server = await startPrivateRedis(["--appendonly", "yes"]);
  const redis = new IORedis(server.url, {
    ...failFastRedisOptions({ connectTimeoutMs: 500 }),
    lazyConnect: true,
  });
  await redis.connect();
  try {
    const store = new RedisJobStore(tcpScripting(redis), { listen: false, timeoutMs: 1_000 });
    await work({ server, redis, store });
  } finally {
    redis.disconnect();
    await server.close();
  }
}
