-- reverse merge (operator, before rolling back into O): oldGen := max(oldGen, newGen).
-- KEYS: 1 old generation, 2 new generation. Returns the old counter's value.
local oldGen = fc_counter(redis.call('GET', KEYS[1]), 'old generation')
local newGen = fc_counter(redis.call('GET', KEYS[2]), 'new generation')
local merged = math.max(oldGen, newGen)
if merged ~= oldGen then redis.call('SET', KEYS[1], merged) end
return merged
