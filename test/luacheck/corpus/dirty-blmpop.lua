-- The key is after the count, not the timeout.
return redis.call('BLMPOP', 5, 1, ARGV[1], 'LEFT') --! undeclared-key
