-- server.call on an undeclared key: the same breach as redis.call.
server.call('SET', 'global:counter', 1) --! undeclared-key
local rcall = server.call
rcall('DEL', ARGV[1]) --! undeclared-key
local ok = server.pcall('GET', KEYS[1] .. ':meta') --! same-tag-key
return server['call']('INCR', ARGV[2]) --! undeclared-key
