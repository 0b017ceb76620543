-- known_generation, phase C: the new counter. KEYS: 1 new generation.
return fc_counter(redis.call('GET', KEYS[1]), 'new generation')
