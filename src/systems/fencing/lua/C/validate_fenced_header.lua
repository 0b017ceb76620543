-- validate_fenced_header, phase C: the new pair. KEYS: 1 new lease, 2 new generation. ARGV: owner, generation.
local owner, gen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation')
local newLease = fc_lease(redis.call('GET', KEYS[1]), 'new lease')
local newGen = fc_counter(redis.call('GET', KEYS[2]), 'new generation')
return fc_validate(newLease, newGen, owner, gen)
