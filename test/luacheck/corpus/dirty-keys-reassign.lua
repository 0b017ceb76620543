KEYS = { ARGV[1] } --! keys-write
local keys = KEYS
keys[2] = 'other' --! keys-write
return redis.call('GET', KEYS[1]) --! undeclared-key
