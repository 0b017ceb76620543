redis.call('ZUNIONSTORE', KEYS[1], 2, KEYS[2], KEYS[3], 'WEIGHTS', 1, 2)
redis.call('ZINTERSTORE', KEYS[1], '1', KEYS[2])
return redis.call('ZCARD', KEYS[1])
