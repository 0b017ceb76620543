-- Container commands: the key is after the subcommand word.
redis.call('XGROUP', 'CREATE', KEYS[1], ARGV[1], '$', 'MKSTREAM')
redis.call('XGROUP', 'CREATECONSUMER', KEYS[1], ARGV[1], ARGV[2])
local info = redis.call('XINFO', 'STREAM', KEYS[1])
local enc = redis.call('OBJECT', 'ENCODING', KEYS[2])
local mem = redis.call('MEMORY', 'USAGE', KEYS[2])
return {info, enc, mem}
