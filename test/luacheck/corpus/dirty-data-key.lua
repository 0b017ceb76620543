-- A key read back from data can be anywhere.
local id = redis.call('RPOP', KEYS[1])
return redis.call('HGETALL', 'job:' .. id) --! undeclared-key
