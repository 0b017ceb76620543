-- renew, phase B: migrate-then-renew. The caller's own lease still on the old key moves to the new
-- key (same owner, same generation, no issuance) in this one atomic script; then new key PEXPIRE.
-- KEYS: 1 old lease, 2 new lease. ARGV: owner, generation, ttl ms.
local owner, gen, ttl = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation'), fc_int(ARGV[3], 'ttl')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local newLease = fc_lease(redis.call('GET', KEYS[2]), 'new lease')
if fc_is(newLease, owner, gen) then
  redis.call('PEXPIRE', KEYS[2], ttl)
  return { 'ok', 'new' }
end
if not fc_is(oldLease, owner, gen) then return { 'lost' } end
if newLease then return { 'conflict', newLease.owner, newLease.gen } end -- guard MigrateB_NewLeaseFree
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], fc_encode(owner, gen), 'PX', ttl)
return { 'migrated', gen }
