/**
 * The Lua scripts of the Redis store's registry of live workers. Keys (under the store's prefix):
 * `worker:<id>` (the worker as JSON: its registration, last heartbeat and expiry, in ms), which
 * Redis expires twice its ttl after its last heartbeat, and `workers` (ids sorted by the expiry of
 * their heartbeat on the caller's clock, which decides who is live; expired ids are dropped by
 * each heartbeat and listing).
 *
 * @module
 */
import { RedisScript } from "./redis_scripting.ts";

/**
 * Registers a worker or refreshes it, and drops the ids that expired. ARGV: prefix, id, the
 * worker as JSON, now (ms), ttl (ms).
 */
export const heartbeatScript = new RedisScript(`
local p, id, worker, now, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', p .. 'workers', '-inf', now)
redis.call('SET', p .. 'worker:' .. id, worker, 'PX', 2 * ttl)
redis.call('ZADD', p .. 'workers', now + ttl, id)
return 1
`);

/** Forgets a worker. ARGV: prefix, id. */
export const deregisterScript = new RedisScript(`
redis.call('DEL', ARGV[1] .. 'worker:' .. ARGV[2])
redis.call('ZREM', ARGV[1] .. 'workers', ARGV[2])
return 1
`);

/** Answers the JSON of each worker live at an instant (its expiry after it). ARGV: prefix, now. */
export const workersScript = new RedisScript(`
local p, now = ARGV[1], tonumber(ARGV[2])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'workers', '(' .. now, '+inf')) do
  local worker = redis.call('GET', p .. 'worker:' .. id)
  if worker then out[#out + 1] = worker end
end
return out
`);
