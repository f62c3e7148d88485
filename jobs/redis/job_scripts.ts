/**
 * The Lua scripts of the Redis job store, one per operation, each atomic. Keys (under a prefix):
 * `job:<id>` (hash), `waiting:<queue>` (sorted by due time), `running:<queue>` (sorted by lease
 * end), `finished` (sorted by finish time), `finished:<queue>:<status>` (the same, per queue and
 * finished status, for retention; jobs finished before it came are only in `finished`), `all`
 * (sorted by creation), `idem:<name,tenant,key>`,
 * `queues` (a set of every queue that had a job: the rescue reads their `running:` sets),
 * `activity:<minute>` (a hash per minute, kept 25 hours: field `[kind, tenant, queue]` in
 * JSON, kind `succeeded`, `failed` or `dead`, value that minute's count; `jobActivity` reads it),
 * and `attempts:<id>` (a list of the job's last attempts that did not succeed, each JSON
 * `{attempt, outcome, errorCode, errorMessage, startedAt, endedAt}`, capped at
 * `jobAttemptHistoryLimit`, deleted with the job; a success is read from the hash's `sa` and
 * `fa`, so that completions, the hot path, write nothing more).
 *
 * Hash fields: n name, q queue, p payload, a actor, t tenant, c correlation, tp traceparent,
 * s subject, k idempotency key, ik its key under idem:, st status, at attempts, mx max attempts, r due (ms), lt lease
 * token, le lease end (ms), d progress done, tt progress total, cp checkpoint, ec/em last error,
 * ea its time (ms), ca created (ms), fa finished (ms), sa the current attempt's start (ms),
 * w the worker that holds or last held it.
 */
import { RedisScript } from "./redis_scripting.ts";
import { jobAttemptHistoryLimit } from "../store/job_attempts.ts";
import { attemptsExhaustedCode, attemptsExhaustedMessage } from "../store/worker_registry.ts";

/** How long a minute's activity counters are kept: 25 hours, in seconds (a day can be charted). */
export const activityTtlSeconds = 90_000;

const held = `
local function held(key, token)
  return redis.call('HGET', key, 'st') == 'running' and redis.call('HGET', key, 'lt') == token
end
local function ms(n) return string.format('%d', n) end
local function counted(p, now, counts)
  local minute = p .. 'activity:' .. ms(now - now % 60000)
  local any = false
  for field, n in pairs(counts) do
    redis.call('HINCRBY', minute, field, n)
    any = true
  end
  if any then redis.call('EXPIRE', minute, ${activityTtlSeconds}) end
end
local function count(p, key, kind, now)
  local f = redis.call('HMGET', key, 't', 'q')
  counted(p, now, {[cjson.encode({kind, f[1] or '', f[2]})] = 1})
end
local function ended(p, key, id, outcome, now, code, message)
  local f = redis.call('HMGET', key, 'at', 'sa')
  local list = p .. 'attempts:' .. id
  redis.call('RPUSH', list, cjson.encode({attempt = tonumber(f[1]), outcome = outcome,
    errorCode = code, errorMessage = message, startedAt = tonumber(f[2]), endedAt = now}))
  redis.call('LTRIM', list, -${jobAttemptHistoryLimit}, -1)
end
local function finish(p, id, q, st, now)
  redis.call('ZADD', p .. 'finished', now, id)
  redis.call('ZADD', p .. 'finished:' .. q .. ':' .. st, now, id)
end
local function reaches(key, tenants)
  if tenants == '' then return true end
  local t = redis.call('HGET', key, 't')
  for _, tenant in ipairs(cjson.decode(tenants)) do
    if tenant == t then return true end
  end
  return false
end
`;

/** Ends a running job whose last attempt's lease ended: dead with `ATTEMPTS_EXHAUSTED`. */
const exhausted = `
local function exhausted(p, key, id, q, now)
  redis.call('HSET', key, 'st', 'dead', 'fa', ms(now), 'ec', '${attemptsExhaustedCode}',
    'em', '${attemptsExhaustedMessage}', 'ea', ms(now))
  ended(p, key, id, 'dead', now, '${attemptsExhaustedCode}', '${attemptsExhaustedMessage}')
  redis.call('HDEL', key, 'lt', 'le')
  redis.call('ZREM', p .. 'running:' .. q, id)
  finish(p, id, q, 'dead', now)
  count(p, key, 'failed', now)
  count(p, key, 'dead', now)
end
`;

/**
 * Inserts jobs, each kept once per idempotency key (a key taken earlier in the batch included)
 * and once per id (a job written already is left as it is: an outbox relay may write it twice);
 * answers `id, duplicate` per job, flat, and publishes each queue that got a job on
 * `<prefix>enqueued`. ARGV: prefix, then per job: id, idem key or '', queue, due (ms), created (ms),
 * the count of hash fields and values, and those.
 */
export const insertScript = new RedisScript(`
local p = ARGV[1]
local out, queues = {}, {}
local i = 2
while i <= #ARGV do
  local id, idem, q, due, created, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], tonumber(ARGV[i + 5])
  local first = i + 6
  i = first + n
  local existing = false
  if idem ~= '' then existing = redis.call('GET', p .. 'idem:' .. idem) end
  if existing then
    out[#out + 1] = existing
    out[#out + 1] = 1
  elseif redis.call('EXISTS', p .. 'job:' .. id) == 1 then
    out[#out + 1] = id
    out[#out + 1] = 0
  else
    redis.call('HSET', p .. 'job:' .. id, unpack(ARGV, first, i - 1))
    redis.call('ZADD', p .. 'waiting:' .. q, due, id)
    redis.call('ZADD', p .. 'all', created, id)
    if idem ~= '' then redis.call('SET', p .. 'idem:' .. idem, id) end
    redis.call('SADD', p .. 'queues', q)
    queues[q] = true
    out[#out + 1] = id
    out[#out + 1] = 0
  end
end
for q in pairs(queues) do redis.call('PUBLISH', p .. 'enqueued', q) end
return out
`);

/** Answers, in order, the id kept under each idempotency key, or ''. ARGV: prefix, then keys. */
export const keptScript = new RedisScript(`
local out = {}
for i = 2, #ARGV do out[#out + 1] = redis.call('GET', ARGV[1] .. 'idem:' .. ARGV[i]) or '' end
return out
`);

/**
 * Claims due jobs and jobs whose lease ended; answers them as one JSON array of their hashes
 * (one string to decode, not two per field; a job whose lease ended has `leaseEnded: '1'`, not
 * kept).
 * ARGV: prefix, queue, now, limit, default lease, leases json, the claiming worker's id or '',
 * the claim's token (unique per claim: each job's lease token is it, a dot and the job's place in
 * the claim).
 */
export const claimScript = new RedisScript(
  held + exhausted + `
local p, q, now, limit = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local defaultLease, leases, worker = tonumber(ARGV[5]), cjson.decode(ARGV[6]), ARGV[7]
redis.call('SADD', p .. 'queues', q)
local candidates = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'running:' .. q, '-inf', now)) do
  local key = p .. 'job:' .. id
  local f = redis.call('HMGET', key, 'at', 'mx', 'r')
  if tonumber(f[1]) >= tonumber(f[2]) then
    exhausted(p, key, id, q, now)
  else
    candidates[#candidates + 1] = {tonumber(f[3]), id, false}
  end
end
local due = redis.call('ZRANGEBYSCORE', p .. 'waiting:' .. q, '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
for i = 1, #due, 2 do candidates[#candidates + 1] = {tonumber(due[i + 1]), due[i], true} end
table.sort(candidates, function(a, b)
  if a[1] == b[1] then return a[2] < b[2] end
  return a[1] < b[1]
end)
local out = {}
for i = 1, math.min(limit, #candidates) do
  local id, waiting = candidates[i][2], candidates[i][3]
  local key = p .. 'job:' .. id
  if waiting then redis.call('ZREM', p .. 'waiting:' .. q, id) else ended(p, key, id, 'expired', now) end
  local lease = leases[redis.call('HGET', key, 'n')] or defaultLease
  local token = ARGV[8] .. '.' .. i
  if worker ~= '' then
    redis.call('HSET', key, 'st', 'running', 'lt', token, 'le', ms(now + lease), 'sa', ms(now), 'w', worker)
  else
    redis.call('HSET', key, 'st', 'running', 'lt', token, 'le', ms(now + lease), 'sa', ms(now))
    redis.call('HDEL', key, 'w')
  end
  redis.call('HINCRBY', key, 'at', 1)
  redis.call('ZADD', p .. 'running:' .. q, now + lease, id)
  local row = redis.call('HGETALL', key)
  local job = {}
  for j = 1, #row, 2 do job[row[j]] = row[j + 1] end
  if not waiting then job.leaseEnded = '1' end
  out[#out + 1] = job
end
if #out == 0 then return '[]' end
return cjson.encode(out)
`,
);

/**
 * Takes back, of every queue (the set `queues`), up to `limit` running jobs whose lease ended,
 * oldest lease first: waiting again (the attempt recorded as `expired`; the queue published as
 * enqueued, so idle workers claim it), or dead with `ATTEMPTS_EXHAUSTED` on their last attempt.
 * Answers `id, queue, outcome` per job, flat. ARGV: prefix, now, limit.
 */
export const rescueScript = new RedisScript(
  held + exhausted + `
local p, now, limit = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local candidates = {}
for _, q in ipairs(redis.call('SMEMBERS', p .. 'queues')) do
  local leased = redis.call('ZRANGEBYSCORE', p .. 'running:' .. q, '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
  for i = 1, #leased, 2 do candidates[#candidates + 1] = {tonumber(leased[i + 1]), leased[i], q} end
end
table.sort(candidates, function(a, b)
  if a[1] == b[1] then return a[2] < b[2] end
  return a[1] < b[1]
end)
local out, woken = {}, {}
for i = 1, math.min(limit, #candidates) do
  local id, q = candidates[i][2], candidates[i][3]
  local key = p .. 'job:' .. id
  local f = redis.call('HMGET', key, 'at', 'mx', 'r')
  if tonumber(f[1]) >= tonumber(f[2]) then
    exhausted(p, key, id, q, now)
    out[#out + 1] = id
    out[#out + 1] = q
    out[#out + 1] = 'dead'
  else
    ended(p, key, id, 'expired', now)
    redis.call('HSET', key, 'st', 'waiting')
    redis.call('HDEL', key, 'lt', 'le')
    redis.call('ZREM', p .. 'running:' .. q, id)
    redis.call('ZADD', p .. 'waiting:' .. q, f[3], id)
    woken[q] = true
    out[#out + 1] = id
    out[#out + 1] = q
    out[#out + 1] = 'waiting'
  end
end
for q in pairs(woken) do redis.call('PUBLISH', p .. 'enqueued', q) end
return out
`,
);

/** Marks a held job succeeded. ARGV: prefix, id, token, now. */
export const completeScript = new RedisScript(
  held + `
local p, id, token, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = p .. 'job:' .. id
if not held(key, token) then return 0 end
redis.call('HSET', key, 'st', 'succeeded', 'fa', ms(now))
redis.call('HDEL', key, 'lt', 'le')
local q = redis.call('HGET', key, 'q')
redis.call('ZREM', p .. 'running:' .. q, id)
finish(p, id, q, 'succeeded', now)
count(p, key, 'succeeded', now)
return 1
`,
);

/** Marks held jobs succeeded; answers 1 or 0 per job, in order. ARGV: prefix, now, then id, token per job. */
export const completeManyScript = new RedisScript(
  held + `
local p, now = ARGV[1], tonumber(ARGV[2])
local out = {}
-- The batch's activity, counted once per tenant and queue (one HINCRBY each, one EXPIRE).
local counts = {}
for i = 3, #ARGV, 2 do
  local id, key = ARGV[i], p .. 'job:' .. ARGV[i]
  if held(key, ARGV[i + 1]) then
    local f = redis.call('HMGET', key, 't', 'q')
    redis.call('HSET', key, 'st', 'succeeded', 'fa', ms(now))
    redis.call('HDEL', key, 'lt', 'le')
    redis.call('ZREM', p .. 'running:' .. f[2], id)
    finish(p, id, f[2], 'succeeded', now)
    local field = cjson.encode({'succeeded', f[1] or '', f[2]})
    counts[field] = (counts[field] or 0) + 1
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
counted(p, now, counts)
return out
`,
);

/**
 * Records a failed attempt. ARGV: prefix, id, token, now, code, message, retry at or '', the
 * message as the attempt history keeps it (cut).
 */
export const failScript = new RedisScript(
  held + `
local p, id, token, now, retry = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[7]
local key = p .. 'job:' .. id
if not held(key, token) then return 0 end
local q = redis.call('HGET', key, 'q')
redis.call('HSET', key, 'ec', ARGV[5], 'em', ARGV[6], 'ea', ms(now))
redis.call('HDEL', key, 'lt', 'le')
redis.call('ZREM', p .. 'running:' .. q, id)
count(p, key, 'failed', now)
ended(p, key, id, retry == '' and 'dead' or 'retried', now, ARGV[5], ARGV[8])
if retry == '' then
  redis.call('HSET', key, 'st', 'dead', 'fa', ms(now))
  finish(p, id, q, 'dead', now)
  count(p, key, 'dead', now)
else
  redis.call('HSET', key, 'st', 'waiting', 'r', retry)
  redis.call('ZADD', p .. 'waiting:' .. q, retry, id)
end
return 1
`,
);

/** Gives a held job back uncounted. ARGV: prefix, id, token. */
export const releaseScript = new RedisScript(
  held + `
local p, id, token = ARGV[1], ARGV[2], ARGV[3]
local key = p .. 'job:' .. id
if not held(key, token) then return 0 end
local f = redis.call('HMGET', key, 'q', 'r')
redis.call('HSET', key, 'st', 'waiting')
redis.call('HINCRBY', key, 'at', -1)
redis.call('HDEL', key, 'lt', 'le')
redis.call('ZREM', p .. 'running:' .. f[1], id)
redis.call('ZADD', p .. 'waiting:' .. f[1], f[2], id)
return 1
`,
);

/** Extends a held job's lease, with progress and checkpoint. ARGV: prefix, id, token, now, lease, done or '', total or '', checkpoint or ''. */
export const reportScript = new RedisScript(
  held + `
local p, id, token, now, lease = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local key = p .. 'job:' .. id
if not held(key, token) then return 0 end
redis.call('HSET', key, 'le', ms(now + lease))
redis.call('ZADD', p .. 'running:' .. redis.call('HGET', key, 'q'), now + lease, id)
if ARGV[6] ~= '' then
  redis.call('HSET', key, 'd', ARGV[6])
  if ARGV[7] ~= '' then redis.call('HSET', key, 'tt', ARGV[7]) else redis.call('HDEL', key, 'tt') end
end
if ARGV[8] ~= '' then redis.call('HSET', key, 'cp', ARGV[8]) end
return 1
`,
);

/** Cancels a waiting or running job of the reach. ARGV: prefix, id, tenants json or '', now. */
export const cancelScript = new RedisScript(
  held + `
local p, id, tenants, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = p .. 'job:' .. id
local st = redis.call('HGET', key, 'st')
if (st ~= 'waiting' and st ~= 'running') or not reaches(key, tenants) then return 0 end
local q = redis.call('HGET', key, 'q')
redis.call('HSET', key, 'st', 'cancelled', 'fa', ms(now))
redis.call('HDEL', key, 'lt', 'le')
redis.call('ZREM', p .. 'waiting:' .. q, id)
redis.call('ZREM', p .. 'running:' .. q, id)
finish(p, id, q, 'cancelled', now)
return 1
`,
);

/** Revives a dead job of the reach (published as enqueued). ARGV: prefix, id, tenants json or '', now. */
export const retryDeadScript = new RedisScript(
  held + `
local p, id, tenants, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = p .. 'job:' .. id
if redis.call('HGET', key, 'st') ~= 'dead' or not reaches(key, tenants) then return 0 end
local q = redis.call('HGET', key, 'q')
redis.call('HSET', key, 'st', 'waiting', 'at', '0', 'r', ms(now))
redis.call('HDEL', key, 'fa')
redis.call('ZREM', p .. 'finished', id)
redis.call('ZREM', p .. 'finished:' .. q .. ':dead', id)
redis.call('ZADD', p .. 'waiting:' .. q, now, id)
redis.call('PUBLISH', p .. 'enqueued', q)
return 1
`,
);

/** Answers a job's hash. ARGV: prefix, id. */
export const findScript = new RedisScript(`
return redis.call('HGETALL', ARGV[1] .. 'job:' .. ARGV[2])
`);

/** Answers a job's hash and its attempt history (JSON items, oldest first). ARGV: prefix, id. */
export const viewScript = new RedisScript(`
return {redis.call('HGETALL', ARGV[1] .. 'job:' .. ARGV[2]),
  redis.call('LRANGE', ARGV[1] .. 'attempts:' .. ARGV[2], 0, -1)}
`);

/** Deletes a finished job: its hash, its attempts, its idempotency key and its index entries. */
const forget = `
local function forget(p, id)
  local key = p .. 'job:' .. id
  local f = redis.call('HMGET', key, 'ik', 'q', 'st')
  if f[1] and f[1] ~= '' and redis.call('GET', p .. 'idem:' .. f[1]) == id then
    redis.call('DEL', p .. 'idem:' .. f[1])
  end
  if f[2] and f[3] then redis.call('ZREM', p .. 'finished:' .. f[2] .. ':' .. f[3], id) end
  redis.call('DEL', key, p .. 'attempts:' .. id)
  redis.call('ZREM', p .. 'finished', id)
  redis.call('ZREM', p .. 'all', id)
end
`;

/** Deletes jobs finished before an instant and frees their keys. ARGV: prefix, before. */
export const purgeScript = new RedisScript(
  forget + `
local p, before = ARGV[1], tonumber(ARGV[2])
local ids = redis.call('ZRANGEBYSCORE', p .. 'finished', '-inf', '(' .. before)
for _, id in ipairs(ids) do forget(p, id) end
return #ids
`,
);

/**
 * Removes up to `limit` jobs of a queue and status, oldest first: those finished before an
 * instant, then those beyond the `keep` that finished last (`finished:<queue>:<status>` is sorted
 * by finish time, ties by id); answers how many. ARGV: prefix, queue, status, before (ms) or '',
 * keep or '', limit.
 */
export const pruneScript = new RedisScript(
  forget + `
local p, q, st = ARGV[1], ARGV[2], ARGV[3]
local limit = tonumber(ARGV[6])
local set = p .. 'finished:' .. q .. ':' .. st
local ids = {}
if ARGV[4] ~= '' then
  ids = redis.call('ZRANGEBYSCORE', set, '-inf', '(' .. ARGV[4], 'LIMIT', 0, limit)
end
if ARGV[5] ~= '' and #ids < limit then
  local beyond = redis.call('ZCARD', set) - #ids - tonumber(ARGV[5])
  if beyond > 0 then
    local more = redis.call('ZRANGE', set, #ids, #ids + math.min(beyond, limit - #ids) - 1)
    for _, id in ipairs(more) do ids[#ids + 1] = id end
  end
end
for _, id in ipairs(ids) do forget(p, id) end
return #ids
`,
);

/** Answers every job's hash, oldest first. ARGV: prefix. */
export const listScript = new RedisScript(`
local out = {}
for _, id in ipairs(redis.call('ZRANGE', ARGV[1] .. 'all', 0, -1)) do
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. 'job:' .. id)
end
return out
`);
