-- The plainest script: every key is a KEYS element.
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return redis.call('INCR', KEYS[2])
