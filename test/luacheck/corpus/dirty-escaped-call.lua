local lib = require_helper(redis.call) --! escaped-call
local t = {}
t.call = redis.pcall
return t.call('GET', ARGV[1]) --! undeclared-key
