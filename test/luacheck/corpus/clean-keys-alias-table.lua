local keys = KEYS
local argv = ARGV
redis.call('SET', keys[1], argv[1])
return redis.call('GET', keys[#keys])
