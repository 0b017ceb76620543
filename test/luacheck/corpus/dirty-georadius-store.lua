redis.call('GEORADIUS', KEYS[1], 15, 37, 200, 'km', 'STORE', 'nearby') --! undeclared-key
return redis.call('GEORADIUSBYMEMBER', KEYS[1], 'palermo', 100, 'km', 'STOREDIST', ARGV[1]) --! undeclared-key
