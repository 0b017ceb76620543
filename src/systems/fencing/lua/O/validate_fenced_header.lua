-- validate_fenced_header, phase O: the old pair. KEYS: 1 old lease, 2 old generation. ARGV: owner, generation.
local owner, gen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local oldGen = fc_counter(redis.call('GET', KEYS[2]), 'old generation')
return fc_validate(oldLease, oldGen, owner, gen)
