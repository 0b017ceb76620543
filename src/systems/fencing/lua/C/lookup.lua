-- lookup, phase C: the new key. KEYS: 1 new lease.
return fc_found(fc_lease(redis.call('GET', KEYS[1]), 'new lease'), 'new')
