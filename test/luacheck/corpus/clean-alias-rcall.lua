-- The queue-library idiom: alias the call function once.
local rcall = redis.call
local jobs = KEYS[1]
local n = rcall('LLEN', jobs)
rcall('LPUSH', jobs, ARGV[1])
rcall('HSET', KEYS[2], 'last', ARGV[1])
return n
