local function drain(key, n)
  if n == 0 then return 0 end
  local v = redis.call('LPOP', key)
  if not v then return 0 end
  return 1 + drain(key, n - 1)
end
return drain(KEYS[1], tonumber(ARGV[1]))
