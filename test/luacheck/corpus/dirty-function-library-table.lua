#!lua name=leaky_table
server.register_function{
  function_name = 'ro_other',
  callback = function(keys, args)
    return server.call('GET', args[1]) --! undeclared-key
  end,
  flags = { 'no-writes' },
}
