local k = KEYS[1]
if ARGV[1] ~= '' then
  k = ARGV[1]
end
return redis.call('GET', k) --! undeclared-key
