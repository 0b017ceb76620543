-- A literal hash tag proves nothing: KEYS may carry another one.
redis.call('SET', '{user}:profile', ARGV[1]) --! undeclared-key
return redis.call('GET', ARGV[1] .. KEYS[1]) --! undeclared-key
