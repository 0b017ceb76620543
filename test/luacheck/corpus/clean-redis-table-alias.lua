local r = redis
local call = r.pcall
r.call('SET', KEYS[1], ARGV[1])
call('EXPIRE', KEYS[1], 60)
return r.call('GET', KEYS[1])
