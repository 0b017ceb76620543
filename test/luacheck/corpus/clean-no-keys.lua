local t = redis.call('TIME')
local pong = redis.call('PING')
local h = redis.sha1hex(ARGV[1])
redis.log(redis.LOG_NOTICE, 'checked ' .. h)
return {t[1], pong, redis.call('ECHO', ARGV[1])}
