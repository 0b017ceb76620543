local f = loadstring("return redis.call('GET', 'hidden')") --! loadstring
local g = load(ARGV[1]) --! loadstring
return f()
