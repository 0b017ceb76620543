--- @include "includes/keys_helper.lua"
--- @include "includes/bad_helper.lua"
local n = add_job(KEYS[1], ARGV[1])
log_job(ARGV[2])
return n
