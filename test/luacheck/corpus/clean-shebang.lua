#!lua flags=no-writes
local v = redis.call('GET', KEYS[1])
return v
