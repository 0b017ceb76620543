local ok, v = pcall(redis.call, 'GET', KEYS[1])
local r = redis.pcall('HGET', KEYS[2], 'field')
if type(r) == 'table' and r.err then return r end
return v
