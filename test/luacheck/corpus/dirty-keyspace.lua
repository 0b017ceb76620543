local all = redis.call('KEYS', 'job:*') --! keyspace-command
local page = redis.call('SCAN', 0, 'MATCH', 'job:*') --! keyspace-command
local any = redis.call('RANDOMKEY') --! keyspace-command
redis.call('FLUSHDB') --! keyspace-command
return {all, page, any}
