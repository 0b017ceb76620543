redis.call('DEL', unpack(ARGV)) --! undeclared-key
local t = { KEYS[1], ARGV[1] }
return redis.call('MGET', unpack(t)) --! undeclared-key
