-- acquire, phase B: union lease check; lease on the new key; max(old,new)+1 -> new counter.
-- KEYS: 1 old lease, 2 old generation, 3 new lease, 4 new generation. ARGV: owner, ttl ms, max generation.
local owner, ttl, maxGen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'ttl'), fc_int(ARGV[3], 'maxGen')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local oldGen = fc_counter(redis.call('GET', KEYS[2]), 'old generation')
local newLease = fc_lease(redis.call('GET', KEYS[3]), 'new lease')
local newGen = fc_counter(redis.call('GET', KEYS[4]), 'new generation')
if oldLease then return fc_held(oldLease) end -- guard AcquireB_OldLeaseFree
if newLease then return fc_held(newLease) end -- guard AcquireB_NewLeaseFree
local g = math.max(oldGen, newGen) + 1 -- effect AcquireB_MaxMerge
if g > maxGen then return { 'exhausted', maxGen } end
redis.call('SET', KEYS[4], g)
redis.call('SET', KEYS[3], fc_encode(owner, g), 'PX', ttl)
return { 'ok', g }
