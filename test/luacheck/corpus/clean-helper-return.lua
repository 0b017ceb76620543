local function key(i)
  return KEYS[i]
end
local function get(k)
  return redis.call('GET', k)
end
redis.call('SET', key(1), ARGV[1])
return get(key(2))
