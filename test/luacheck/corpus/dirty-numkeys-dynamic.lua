-- A count that is not a literal: every argument after it is taken as a key.
redis.call('ZUNIONSTORE', KEYS[1], #KEYS - 1, unpack(KEYS, 2))
return redis.call('ZUNIONSTORE', KEYS[1], ARGV[1], KEYS[2], 'WEIGHTS', 2) --! undeclared-key undeclared-key
