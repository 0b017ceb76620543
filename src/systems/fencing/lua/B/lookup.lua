-- lookup, phase B: union of both lease keys, the new key wins. KEYS: 1 old lease, 2 new lease.
local oldLease = fc_lease(redis.call('GET', KEYS[1]), 'old lease')
local newLease = fc_lease(redis.call('GET', KEYS[2]), 'new lease')
if newLease then return fc_found(newLease, 'new') end
return fc_found(oldLease, 'old')
