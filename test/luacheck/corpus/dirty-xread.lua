return redis.call('XREAD', 'STREAMS', KEYS[1], 'audit', '0', '0') --! undeclared-key
