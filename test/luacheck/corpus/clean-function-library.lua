#!lua name=counters
-- A Functions library: the callback gets (keys, args); keys is the declared list.
local function incr_both(keys, args)
  server.call('INCRBY', keys[1], args[1])
  for _, k in ipairs(keys) do
    server.call('EXPIRE', k, args[2])
  end
  return redis.call('GET', keys[2])
end

server.register_function('incr_both', incr_both)
redis.register_function('peek', function(keys, args)
  return server.call('GET', keys[1])
end)
