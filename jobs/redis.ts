/**
 * Background jobs on Redis: `RedisJobStore` over `@upstash/redis` (HTTP) or a TCP client
 * (`ioredis`, a `Redis` or a Redis Cluster client), every operation one Lua script.
 *
 * @module
 */
export { type RedisRunOptions, type RedisScripting } from "./redis/redis_scripting.ts";
export * from "./redis/adapters.ts";
export * from "./redis/redis_job_store.ts";
export {
  checkRedisDurability,
  type DurabilityFinding,
  type DurabilityRequirement,
  RedisNotDurableError,
} from "./redis/redis_durability.ts";
export {
  RedisDurabilityMonitor,
  type RedisDurabilityMonitorOptions,
  type RedisDurabilityState,
  type RedisLoss,
} from "./redis/redis_durability_monitor.ts";
export { RedisUnavailableError } from "./redis/redis_unavailable.ts";
