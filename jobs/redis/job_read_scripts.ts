/**
 * The Lua scripts of the Redis job store's operator reads (counts and pages), over the keys of
 * `job_scripts.ts`: they walk `all` (every job, sorted by creation time) and read each job's hash.
 */
import { RedisScript } from "./redis_scripting.ts";

const allowedTenants = `
local function allowedOf(tenants)
  if tenants == '' then return nil end
  local allowed = {}
  for _, tenant in ipairs(cjson.decode(tenants)) do allowed[tenant] = true end
  return allowed
end
`;

/**
 * Counts a slice of `all` (by rank) by queue and status, of the reach. Answers the number of ids
 * read and, flat, `queue, status, count` per pair. ARGV: prefix, tenants json or '', start, count.
 */
export const countScript = new RedisScript(
  allowedTenants + `
local p, allowed, start, count = ARGV[1], allowedOf(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ids = redis.call('ZRANGE', p .. 'all', start, start + count - 1)
local counts = {}
for _, id in ipairs(ids) do
  local f = redis.call('HMGET', p .. 'job:' .. id, 'q', 'st', 't')
  if f[1] and (allowed == nil or (f[3] and allowed[f[3]])) then
    counts[f[1]] = counts[f[1]] or {}
    counts[f[1]][f[2]] = (counts[f[1]][f[2]] or 0) + 1
  end
end
local out = {}
for q, byStatus in pairs(counts) do
  for st, n in pairs(byStatus) do
    out[#out + 1] = q
    out[#out + 1] = st
    out[#out + 1] = n
  end
end
return {#ids, out}
`,
);

/**
 * A page of jobs of the reach, newest first (creation score desc, id desc), after a cursor; reads
 * at most `budget` jobs' hashes. Answers `{more, score, id, hashes}`: `more` 1 when jobs may
 * follow, from the position `score, id` (the last job answered, or the last read when the budget
 * ran out first). ARGV: prefix, tenants json or '', queue, status, name prefix, subject, error
 * code (each '' for any), cursor score or '', cursor id, limit, budget.
 */
export const pageScript = new RedisScript(
  allowedTenants + `
local p, allowed, q, st = ARGV[1], allowedOf(ARGV[2]), ARGV[3], ARGV[4]
local name, subject, code = ARGV[5], ARGV[6], ARGV[7]
local cscore, cid = ARGV[8], ARGV[9]
local limit, budget = tonumber(ARGV[10]), tonumber(ARGV[11])
local max = '+inf'
if cscore ~= '' then max = cscore end
local hashes, read, offset = {}, 0, 0
local score, id = '', ''
while true do
  local chunk = redis.call('ZREVRANGEBYSCORE', p .. 'all', max, '-inf', 'WITHSCORES', 'LIMIT', offset, 200)
  if #chunk == 0 then return {0, score, id, hashes} end
  offset = offset + #chunk / 2
  for i = 1, #chunk, 2 do
    local jid, s = chunk[i], chunk[i + 1]
    if not (cscore ~= '' and tonumber(s) == tonumber(cscore) and jid >= cid) then
      if read >= budget then return {1, score, id, hashes} end
      read = read + 1
      local key = p .. 'job:' .. jid
      local f = redis.call('HMGET', key, 'q', 'st', 't', 'n', 's', 'ec')
      local matches = f[1] and (allowed == nil or (f[3] and allowed[f[3]]))
        and (q == '' or f[1] == q) and (st == '' or f[2] == st)
        and (name == '' or string.sub(f[4], 1, #name) == name)
        and (subject == '' or f[5] == subject) and (code == '' or f[6] == code)
      if matches then
        if #hashes == limit then return {1, score, id, hashes} end
        hashes[#hashes + 1] = redis.call('HGETALL', key)
      end
      score, id = s, jid
    end
  end
end
`,
);

/**
 * The activity counters of a window, of the reach: reads the hash of each minute from `since`
 * (`activity:<minute>`, see `job_scripts.ts`) and answers, flat, `queue, minute, kind, count` per
 * field counted. ARGV: prefix, tenants json or '', queue or '', since (ms, a whole minute), the
 * number of minutes.
 */
export const activityScript = new RedisScript(
  allowedTenants + `
local p, allowed, q = ARGV[1], allowedOf(ARGV[2]), ARGV[3]
local since, minutes = tonumber(ARGV[4]), tonumber(ARGV[5])
local out = {}
for i = 0, minutes - 1 do
  local minute = string.format('%d', since + i * 60000)
  local flat = redis.call('HGETALL', p .. 'activity:' .. minute)
  for j = 1, #flat, 2 do
    local field = cjson.decode(flat[j])
    local kind, tenant, queue = field[1], field[2], field[3]
    if (allowed == nil or (tenant ~= '' and allowed[tenant])) and (q == '' or queue == q) then
      out[#out + 1] = queue
      out[#out + 1] = minute
      out[#out + 1] = kind
      out[#out + 1] = flat[j + 1]
    end
  end
end
return out
`,
);
