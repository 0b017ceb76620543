-- release, phase B: try the new key; fall back to the old key. Owner+generation guarded on both,
-- so releasing on the wrong key is a no-op.
-- KEYS: 1 old lease, 2 new lease. ARGV: owner, generation.
local owner, gen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'generation')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local newLease = fc_lease(redis.call('GET', KEYS[2]), 'new lease')
if fc_is(newLease, owner, gen) then
  redis.call('DEL', KEYS[2])
  return { 'released', 'new' }
end
if fc_is(oldLease, owner, gen) then
  redis.call('DEL', KEYS[1])
  return { 'released', 'old' }
end
return { 'notheld' }
