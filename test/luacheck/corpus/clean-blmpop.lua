-- BLMPOP timeout numkeys key...: the timeout is not a key.
local a = redis.call('BLMPOP', 0, 2, KEYS[1], KEYS[2], 'LEFT', 'COUNT', 1)
local b = redis.call('LMPOP', 1, KEYS[3], 'RIGHT')
local c = redis.call('ZMPOP', '2', KEYS[1], KEYS[2], 'MIN')
return {a, b, c}
