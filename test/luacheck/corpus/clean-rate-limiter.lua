-- A token bucket on one hash, a sliding window on a sorted set.
local bucket, window = KEYS[1], KEYS[2]
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = redis.call('TIME')
local ms = now[1] * 1000 + math.floor(now[2] / 1000)
local state = redis.call('HMGET', bucket, 'tokens', 'ts')
local tokens = tonumber(state[1]) or capacity
local ts = tonumber(state[2]) or ms
tokens = math.min(capacity, tokens + (ms - ts) * rate / 1000)
local allowed = tokens >= 1
if allowed then tokens = tokens - 1 end
redis.call('HSET', bucket, 'tokens', tokens, 'ts', ms)
redis.call('PEXPIRE', bucket, math.ceil(capacity / rate * 1000))
redis.call('ZREMRANGEBYSCORE', window, 0, ms - 60000)
redis.call('ZADD', window, ms, ARGV[3])
return allowed and 1 or 0
