local r = redis
r.call('DEL', ARGV[1]) --! undeclared-key
local p = r.pcall
return p('GET', 'config') --! undeclared-key
