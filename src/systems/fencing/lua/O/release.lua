-- release, phase O: old key, owner+generation guarded (releasing a lost lease is a no-op).
-- KEYS: 1 old lease. ARGV: owner, generation.
local owner, gen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
if not fc_is(oldLease, owner, gen) then return { 'notheld' } end
redis.call('DEL', KEYS[1])
return { 'released', 'old' }
