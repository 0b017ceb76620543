#!lua name=leaky
-- A Functions library reaching a key it was not given.
local function move(keys, args)
  local id = server.call('LPOP', keys[1])
  server.call('RPUSH', 'archive', id) --! undeclared-key
  return server.call('HGET', args[1], 'state') --! undeclared-key
end
server.register_function('move', move)
server.register_function('tag', function(keys, args)
  table.insert(keys, args[1]) --! keys-write
  return server.call('SET', keys[1] .. ':tag', args[2]) --! same-tag-key
end)
