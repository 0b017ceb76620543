-- acquire, phase C: new key; INCR new counter.
-- KEYS: 1 new lease, 2 new generation. ARGV: owner, ttl ms, max generation.
local owner, ttl, maxGen = fc_owner(ARGV[1]), fc_int(ARGV[2], 'ttl'), fc_int(ARGV[3], 'maxGen')
local newLease = fc_lease(redis.call('GET', KEYS[1]), 'new lease')
local newGen = fc_counter(redis.call('GET', KEYS[2]), 'new generation')
if newLease then return fc_held(newLease) end -- guard AcquireC_NewLeaseFree
if newGen + 1 > maxGen then return { 'exhausted', maxGen } end
local g = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], fc_encode(owner, g), 'PX', ttl)
return { 'ok', g }
