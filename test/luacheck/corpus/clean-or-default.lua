local target = KEYS[2] or KEYS[1]
local mode = ARGV[1] == 'right' and 'RPUSH' or 'LPUSH'
return redis.call(mode, target, ARGV[2])
