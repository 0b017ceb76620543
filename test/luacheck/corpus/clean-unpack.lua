local values = redis.call('MGET', unpack(KEYS))
redis.call('DEL', table.unpack(KEYS))
redis.call('SUNIONSTORE', KEYS[1], unpack(KEYS, 2))
return values
