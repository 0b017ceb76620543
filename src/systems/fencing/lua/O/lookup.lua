-- lookup, phase O: the old key. KEYS: 1 old lease.
return fc_found(fc_lease(redis.call('GET', KEYS[1]), 'old lease'), 'old')
