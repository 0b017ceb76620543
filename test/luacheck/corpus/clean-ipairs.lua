local removed = 0
for _, key in ipairs(KEYS) do
  removed = removed + redis.call('DEL', key)
end
for _, key in pairs(KEYS) do
  redis.call('PEXPIRE', key, ARGV[1])
end
return removed
