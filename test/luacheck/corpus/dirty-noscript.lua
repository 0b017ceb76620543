redis.call('EVAL', 'return 1', 0) --! noscript-command
return redis.call('FCALL', 'myfunc', 1, KEYS[1]) --! noscript-command
