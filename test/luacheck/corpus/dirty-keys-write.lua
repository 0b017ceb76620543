KEYS[1] = ARGV[1] --! keys-write
return redis.call('GET', KEYS[1])
