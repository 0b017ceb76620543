local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('GET', KEYS[i])
end
return out
