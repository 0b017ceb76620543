-- known_generation, phase B: max of both counters. KEYS: 1 old generation, 2 new generation.
local oldGen = fc_counter(redis.call('GET', KEYS[1]), 'old generation')
local newGen = fc_counter(redis.call('GET', KEYS[2]), 'new generation')
return math.max(oldGen, newGen)
