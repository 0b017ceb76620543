-- Built from a declared key: the same hash tag when it has one. Still undeclared.
local base = KEYS[1]
redis.call('HSET', base .. ':meta', 'seen', 1) --! same-tag-key
redis.call('INCR', string.format('%s:count', base)) --! same-tag-key
local tag = KEYS[1]:match('{.-}')
redis.call('SET', tag .. ':lock', ARGV[1]) --! same-tag-key
return redis.call('GET', 'jobs:' .. KEYS[2]) --! same-tag-key
