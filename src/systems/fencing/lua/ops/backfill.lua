-- backfill (operator, once after full-B): newGen := max(oldGen, newGen). Idempotent.
-- KEYS: 1 old generation, 2 new generation. Returns the new counter's value.
local oldGen = fc_counter(redis.call('GET', KEYS[1]), 'old generation')
local newGen = fc_counter(redis.call('GET', KEYS[2]), 'new generation')
local merged = math.max(oldGen, newGen)
if merged ~= newGen then redis.call('SET', KEYS[2], merged) end
return merged
