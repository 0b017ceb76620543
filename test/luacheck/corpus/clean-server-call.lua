-- Valkey 8's own name for the library: server.call / server.pcall, every key from KEYS.
local n = server.call('INCR', KEYS[1])
local ok = server.pcall('EXPIRE', KEYS[1], ARGV[1])
local s = server
s.call('SET', KEYS[2], n)
server.setresp(3)
server.log(server.LOG_NOTICE, 'counted')
if not ok then return server.error_reply('no expiry') end
return server.status_reply('OK')
