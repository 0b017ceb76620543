-- The subcommand word is not the key; the key after it is.
redis.call('XGROUP', 'CREATE', ARGV[1], 'g', '$') --! undeclared-key
local g = redis.call('XINFO', 'GROUPS', 'events') --! undeclared-key
local e = redis.call('OBJECT', 'ENCODING', ARGV[2]) --! undeclared-key
return redis.call('XGROUP', ARGV[3], KEYS[1], 'g') --! dynamic-command
