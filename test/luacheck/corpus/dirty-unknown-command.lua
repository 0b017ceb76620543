return redis.call('JSON.SET', KEYS[1], '$', ARGV[1]) --! unknown-command
