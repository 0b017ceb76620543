-- A helper whose every call site passes a declared key.
local function bump(key, by)
  return redis.call('INCRBY', key, by)
end
local total = bump(KEYS[1], 1)
total = total + bump(KEYS[2], ARGV[1])
return total
