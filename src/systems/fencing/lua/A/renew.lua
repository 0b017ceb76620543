-- renew, phase A: old key PEXPIRE, owner+generation guarded.
-- KEYS: 1 old lease. ARGV: owner, generation, ttl ms.
local owner, gen, ttl = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation'), fc_int(ARGV[3], 'ttl')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
if not fc_is(oldLease, owner, gen) then return { 'lost' } end
redis.call('PEXPIRE', KEYS[1], ttl)
return { 'ok', 'old' }
