#!lua name=readers
-- The table form of register_function, with flags.
server.register_function{
  function_name = 'ro_get',
  callback = function(keys, args)
    return server.call('GET', keys[1])
  end,
  flags = { 'no-writes' },
}
redis.register_function({ function_name = 'ro_len', callback = function(keys) return redis.call('STRLEN', keys[1]) end, flags = { 'no-writes', 'allow-stale' } })
