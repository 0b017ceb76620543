local function bump(key)
  return redis.call('INCR', key) --! undeclared-key
end
bump(KEYS[1])
return bump(ARGV[1])
