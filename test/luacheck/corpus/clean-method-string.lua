-- String methods on values are not keys.
local id = ARGV[1]:sub(1, 8)
local msg = string.format('%s:%s', id, ARGV[2])
redis.call('HSET', KEYS[1], id, msg)
return redis.call('HGET', KEYS[1], id:upper())
