local cmd = ARGV[1]
redis.call(cmd, KEYS[1]) --! dynamic-command
return redis.call(unpack(ARGV)) --! dynamic-command
