-- Keys gathered in a table by name.
local k = { job = KEYS[1], wait = KEYS[2], active = KEYS[3] }
redis.call('LMOVE', k.wait, k.active, 'RIGHT', 'LEFT')
redis.call('HSET', k.job, 'state', ARGV[1])
local list = { KEYS[1], KEYS[2] }
return redis.call('EXISTS', unpack(list))
