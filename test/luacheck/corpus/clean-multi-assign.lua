local src, dst = unpack(KEYS)
local a, b = KEYS[1], KEYS[2]
redis.call('RENAME', src, dst)
return redis.call('SMOVE', a, b, ARGV[1])
