-- Every key after the alias is checked too.
local rcall = redis.call
rcall('GET', KEYS[1])
rcall('SET', ARGV[1], 'x') --! undeclared-key
local jobKey = 'bull:' .. ARGV[2]
return rcall('HGETALL', jobKey) --! undeclared-key
