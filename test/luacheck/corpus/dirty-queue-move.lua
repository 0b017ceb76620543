local rcall = redis.call
local job = rcall('RPOPLPUSH', KEYS[1], ARGV[1]) --! undeclared-key
rcall('LMOVE', KEYS[1], 'bull:' .. ARGV[2] .. ':active', 'LEFT', 'RIGHT') --! undeclared-key
rcall('BLMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT', ARGV[3])
return job
