-- XREAD ... STREAMS key... id...: only the first half after STREAMS are keys.
return redis.call('XREAD', 'COUNT', 10, 'STREAMS', KEYS[1], KEYS[2], ARGV[1], ARGV[2])
