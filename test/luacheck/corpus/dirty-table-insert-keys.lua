table.insert(KEYS, ARGV[1]) --! keys-write
for _, k in ipairs(KEYS) do
  redis.call('DEL', k)
end
rawset(KEYS, 3, 'x') --! keys-write
