redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], 'scores:all') --! undeclared-key
return redis.call('ZINTERCARD', 2, KEYS[1], ARGV[1], 'LIMIT', 5) --! undeclared-key
