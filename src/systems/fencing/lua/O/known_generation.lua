-- known_generation, phase O: the old counter. KEYS: 1 old generation.
return fc_counter(redis.call('GET', KEYS[1]), 'old generation')
