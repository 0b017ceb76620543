-- ordered_limiter.lua: one or two token buckets evaluated in order, in ONE execution.
--
-- KEYS[1] first bucket, KEYS[2] optional second bucket (same hash slot on a cluster).
-- ARGV, three per bucket, pre-encoded once per BucketSpec (src/limiter/spec.ts):
--   capacity (micro-tokens), refill (micro-tokens per ms), idle TTL (ms).
-- Bucket hash fields: tokens (integer micro-tokens; 1 token = 1000000), ts (ms of Valkey TIME).
-- Reply: {decision, delay_ms, now_ms}; decision 0 allowed, 1 first denied, 2 second denied;
-- delay_ms = time until the denying bucket holds one token (0 when allowed); now_ms = the TIME used.
--
-- Transition table (seed 000, "Phase 1"):
--   first deny             -> update first's refill state; second untouched
--   first allow, 2nd deny  -> consume first; update second's refill state
--   both allow             -> consume both
-- Every participating hash is read and validated before the first write: a wrong-type key or a
-- corrupt hash fails the call with nothing written (Valkey does not roll back earlier writes).

local TOKEN = 1000000
local n = #KEYS
if n ~= 1 and n ~= 2 then return redis.error_reply('ERR limiter: expected 1 or 2 keys, got ' .. n) end
if #ARGV ~= 3 * n then return redis.error_reply('ERR limiter: expected 3 arguments per key') end
if n == 2 and KEYS[1] == KEYS[2] then return redis.error_reply('ERR limiter: duplicate key') end

local function int_arg(i, min)
  local v = tonumber(ARGV[i])
  if v == nil or v % 1 ~= 0 or v < min then error({err = 'ERR limiter: bad argument ' .. i}) end
  return v
end

-- Phase 1: read and validate everything (HMGET raises WRONGTYPE here, before any write).
local function read(i)
  local b = { i = i, cap = int_arg(3 * i - 2, TOKEN), rate = int_arg(3 * i - 1, 1), ttl = int_arg(3 * i, 1) }
  local v = redis.call('HMGET', KEYS[i], 'tokens', 'ts')
  if v[1] or v[2] then
    b.tokens, b.ts = tonumber(v[1]), tonumber(v[2])
    if b.tokens == nil or b.ts == nil or b.tokens % 1 ~= 0 or b.ts % 1 ~= 0 or b.tokens < 0 then
      error({err = 'ERR limiter: corrupt bucket ' .. KEYS[i]})
    end
  end
  return b
end

local b1 = read(1)
local b2 = nil
if n == 2 then b2 = read(2) end

local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

-- Refill to `now`, capped at capacity. A missing bucket starts full. A ts ahead of now (the
-- server clock stepped back) refills nothing and keeps ts, so that span is never granted twice.
local function refill(b)
  if b.tokens == nil then
    b.tokens, b.ts = b.cap, now
    return
  end
  local elapsed = now - b.ts
  if elapsed < 0 then elapsed = 0 end
  local tokens = b.tokens + elapsed * b.rate
  if tokens > b.cap then tokens = b.cap end -- refill is capped at capacity
  b.tokens = tokens
  if now > b.ts then b.ts = now end
end

local function delay(b)
  if b.tokens >= TOKEN then return 0 end
  return math.ceil((TOKEN - b.tokens) / b.rate)
end

-- Phase 2: writes. Integers are formatted with %d (Lua's default %.14g would round them).
local function write(b)
  redis.call('HSET', KEYS[b.i], 'tokens', string.format('%d', b.tokens), 'ts', string.format('%d', b.ts))
  redis.call('PEXPIREAT', KEYS[b.i], string.format('%d', now + b.ttl))
end

refill(b1)
if b1.tokens < TOKEN then
  write(b1) -- first denied: its refill state only; the second bucket is not touched
  return {1, delay(b1), now}
end
if b2 ~= nil then
  refill(b2)
  if b2.tokens < TOKEN then
    b1.tokens = b1.tokens - TOKEN -- second denied: the first token stays consumed
    write(b1)
    write(b2)
    return {2, delay(b2), now}
  end
  b2.tokens = b2.tokens - TOKEN
  write(b2)
end
b1.tokens = b1.tokens - TOKEN
write(b1)
return {0, 0, now}
