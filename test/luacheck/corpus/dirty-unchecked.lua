redis.call('SORT', KEYS[1], 'BY', 'weight_*') --! unchecked-command
return redis.call('MIGRATE', '127.0.0.1', 6380, '', 0, 5000, 'KEYS', KEYS[1]) --! unchecked-command
