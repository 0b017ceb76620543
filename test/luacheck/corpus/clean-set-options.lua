local old = redis.call('SET', KEYS[1], ARGV[1], 'PX', 100, 'GET')
redis.call('COPY', KEYS[1], KEYS[2], 'REPLACE')
redis.call('LPOS', KEYS[3], ARGV[1], 'RANK', 1)
redis.call('EXPIRE', KEYS[2], 10, 'NX')
return old
