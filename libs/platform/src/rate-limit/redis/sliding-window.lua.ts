/**
 * `BucketWindow` (../sliding-window.ts) as one Lua script, so a check and its
 * increment are a single atomic step on the Redis server, whichever instance
 * sends it.
 *
 * KEYS[1]  the key's hash: field '<bucket index>' → requests counted in that
 *          bucket, 'l<bucket index>' → the latest request counted in it (epoch
 *          ms; the bucket leaves the window one window after it), plus 'w'
 *          windowMs, 't' total of the stored buckets, 'lo'/'hi' oldest/newest
 *          stored bucket. Bucket fields are decimal integers, so they never
 *          collide with the others.
 * ARGV     nowMs, limit, windowMs, bucketMs, consume ('1') or peek ('0'), cost (units; '1' if absent)
 * returns  { allowed (1|0), counted (after this request), resetAtMs, roomAtMs }
 *          resetAtMs means something only when counted > 0, roomAtMs only when
 *          refused (0 when the cost is over the limit: no wait makes room).
 *
 * Keys written before the 'l' fields existed are read as if each bucket's
 * latest request were at its last millisecond: they count as long as they did
 * then (never less), and nobody's usage is forgotten by the upgrade.
 *
 * Cost: O(1) amortized. The running total answers the check; buckets leave
 * from 'lo' upwards and the walk to the next stored one covers each bucket
 * index at most once while the key lives (at most 1441 of them, since buckets
 * are only appended at or after 'hi' and everything below one window before
 * 'hi' has been dropped).
 *
 * The key expires (PEXPIRE) when its newest bucket leaves the window, so an
 * idle key costs nothing. Numbers go out through string.format('%d'): Lua's own
 * number-to-string conversion keeps 14 significant digits.
 */
export const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local size = tonumber(ARGV[4])
local consume = ARGV[5] == '1'
local cost = tonumber(ARGV[6] or '1')

local function int(n) return string.format('%d', n) end
local function latest(bucket)
  local stamp = redis.call('HGET', key, 'l' .. int(bucket))
  if stamp then return tonumber(stamp) end
  return (bucket + 1) * size - 1
end
local function leaves(bucket) return latest(bucket) + window end

local total, lo, hi = 0, 0, 0
local meta = redis.call('HMGET', key, 'w', 't', 'lo', 'hi')
if meta[1] then
  -- A key used with another window starts over; one whose newest bucket has left is empty.
  if tonumber(meta[1]) == window and leaves(tonumber(meta[4])) > now then
    total, lo, hi = tonumber(meta[2]), tonumber(meta[3]), tonumber(meta[4])
  else
    redis.call('DEL', key)
  end
end

local dirty = false
if total > 0 then
  -- 'hi' is still counted, so this stops.
  local bucket = lo
  while true do
    local count = redis.call('HGET', key, int(bucket))
    if count then
      if leaves(bucket) > now then break end
      total = total - tonumber(count)
      redis.call('HDEL', key, int(bucket), 'l' .. int(bucket))
    end
    bucket = bucket + 1
  end
  if bucket ~= lo then
    lo = bucket
    dirty = true
  end
end

local allowed = total + cost <= limit
if consume and allowed then
  local bucket = math.floor(now / size)
  local stamp = now
  if total > 0 and hi >= bucket then
    bucket = hi
    stamp = math.max(now, latest(hi))
  end
  redis.call('HINCRBY', key, int(bucket), cost)
  redis.call('HSET', key, 'l' .. int(bucket), int(stamp))
  if total == 0 then lo = bucket end
  hi = bucket
  total = total + cost
  dirty = true
end

if dirty then
  redis.call('HSET', key, 'w', int(window), 't', int(total), 'lo', int(lo), 'hi', int(hi))
  redis.call('PEXPIRE', key, int(leaves(hi) - now))
end

local resetAt, roomAt = 0, 0
if total > 0 then resetAt = leaves(lo) end
if not allowed and cost <= limit then
  -- total + cost > limit >= cost, so total > 0: walk the oldest buckets until this request fits.
  local excess = total - limit + cost
  local bucket = lo
  while true do
    local count = redis.call('HGET', key, int(bucket))
    if count then
      excess = excess - tonumber(count)
      if excess <= 0 then break end
    end
    bucket = bucket + 1
  end
  roomAt = leaves(bucket)
end
return { allowed and 1 or 0, total, resetAt, roomAt }
`;
