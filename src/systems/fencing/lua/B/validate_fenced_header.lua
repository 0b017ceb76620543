-- validate_fenced_header, phase B: union pair (the new lease wins), fenced against the max of both counters.
-- KEYS: 1 old lease, 2 old generation, 3 new lease, 4 new generation. ARGV: owner, generation.
local owner, gen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local oldGen = fc_counter(redis.call('GET', KEYS[2]), 'old generation')
local newLease = fc_lease(redis.call('GET', KEYS[3]), 'new lease')
local newGen = fc_counter(redis.call('GET', KEYS[4]), 'new generation')
return fc_validate(newLease or oldLease, math.max(oldGen, newGen), owner, gen)
