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
 * The scripting interface over an `ioredis` client (TCP), with subscriptions on a duplicate of
 * the client (a subscribed connection runs no other command), so that idle workers wake as soon
 * as a job is enqueued.
 */
export function tcpScripting(redis: IORedis): RedisScripting {
  return {
    evalsha: (sha, keys, args) => redis.evalsha(sha, keys.length, ...keys, ...args.map(String)),
    eval: (script, keys, args) => redis.eval(script, keys.length, ...keys, ...args.map(String)),
    async subscribe(channel, onMessage) {
      const subscriber = redis.duplicate();
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
