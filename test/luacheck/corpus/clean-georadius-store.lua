redis.call('GEOADD', KEYS[1], 13.36, 38.11, 'palermo')
redis.call('GEORADIUS', KEYS[1], 15, 37, 200, 'km', 'STORE', KEYS[2])
redis.call('GEORADIUS', KEYS[1], 15, 37, 200, 'km', 'STOREDIST', KEYS[3])
return redis.call('GEOSEARCHSTORE', KEYS[2], KEYS[1], 'FROMLONLAT', 15, 37, 'BYRADIUS', 200, 'km')
