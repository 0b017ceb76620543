-- acquire, phase O: old key; INCR old counter.
-- KEYS: 1 old lease, 2 old generation. ARGV: owner, ttl ms, max generation.
local owner, ttl, maxGen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'ttl'), fc_int(ARGV[3], 'maxGen')
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local oldGen = fc_counter(redis.call('GET', KEYS[2]), 'old generation')
if oldLease then return fc_held(oldLease) end -- guard AcquireO_OldLeaseFree
if oldGen + 1 > maxGen then return { 'exhausted', maxGen } end
local g = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], fc_encode(owner, g), 'PX', ttl)
return { 'ok', g }
