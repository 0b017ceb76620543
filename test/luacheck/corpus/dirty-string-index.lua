redis['call']('SET', 'counter', 1) --! undeclared-key
local name = 'pcall'
return redis[name]('GET', ARGV[1]) --! undeclared-key
