import { consoleLogger, type Logger, summarisingLogger } from "@kit/kernel";
import type { Redis as UpstashRedis } from "@upstash/redis";
import type { Redis as IORedis } from "ioredis";
import type { RedisScripting } from "./redis_scripting.ts";

/**
 * The scripting interface over an `@upstash/redis` client (HTTP). Build the client with
 * `automaticDeserialization: false`, so that replies stay as Redis sent them.
 */
export function upstashScripting(redis: UpstashRedis): RedisScripting {
  return {
    evalsha: (sha, keys, args) => redis.evalsha(sha, [...keys], args.map(String)),
    eval: (script, keys, args) => redis.eval(script, [...keys], args.map(String)),
  };
}

/**
 * The `ioredis` options that make a store fail fast while Redis is down, instead of queueing
 * commands until it returns: connect within `connectTimeoutMs` (default 2,000), no command
 * queued while disconnected (`enableOfflineQueue: false`), a command failed after one retry
 * (`maxRetriesPerRequest: 1`) and within `commandTimeoutMs` (default 2,000). The client keeps
 * reconnecting in the background. Spread them into `new Redis(url, { ...failFastRedisOptions() })`.
 */
export function failFastRedisOptions(
  options: { connectTimeoutMs?: number; commandTimeoutMs?: number } = {},
): {
  connectTimeout: number;
  commandTimeout: number;
  maxRetriesPerRequest: number;
  enableOfflineQueue: boolean;
} {
  return {
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    commandTimeout: options.commandTimeoutMs ?? 2_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  };
}

/**
 * The scripting interface over an `ioredis` client (TCP), with subscriptions on a duplicate of
 * the client (a subscribed connection runs no other command), so that idle workers wake as soon
 * as a job is enqueued. Listens to the client's (and the duplicate's) `error` events, which
 * ioredis emits at each failed reconnection while Redis is down: each is a `warn` line of
 * `logger` (component `redis`, code `REDIS_UNAVAILABLE`; default: a summarising console logger,
 * one line then one per 10 s), never an "Unhandled error event".
 */
export function tcpScripting(redis: IORedis, options: { logger?: Logger } = {}): RedisScripting {
  const logger = options.logger ?? summarisingLogger(consoleLogger());
  const onError = (error: unknown) =>
    logger.log({
      level: "warn",
      component: "redis",
      code: "REDIS_UNAVAILABLE",
      message: "Redis is out of reach: the client reconnects in the background",
      error,
    });
  redis.on("error", onError);
  return {
    evalsha: (sha, keys, args) => redis.evalsha(sha, keys.length, ...keys, ...args.map(String)),
    eval: (script, keys, args) => redis.eval(script, keys.length, ...keys, ...args.map(String)),
    async config(parameter) {
      const reply = await redis.config("GET", parameter) as string[];
      return reply[1];
    },
    async subscribe(channel, onMessage) {
      const subscriber = redis.duplicate({ enableOfflineQueue: true });
      subscriber.on("error", onError);
      subscriber.on("message", (from: string, message: string) => {
        if (from === channel) onMessage(message);
      });
      try {
        await subscriber.subscribe(channel);
      } catch (error) {
        subscriber.disconnect();
        throw error;
      }
      return async function unsubscribe() {
        await subscriber.quit().catch(() => subscriber.disconnect());
      };
    },
  };
}
