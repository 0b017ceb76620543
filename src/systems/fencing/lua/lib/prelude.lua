-- fencecheck fencing prelude, prepended to every fencing script by src/fencing/scripts.ts.
-- Value helpers only: no key is touched here (every key a script touches comes from KEYS).
-- Lease encoding: the lease key's value is "<owner>:<generation>", with a PX TTL.
-- A generation counter is a non-expiring decimal integer string.

local function fc_fail(msg)
  error({ err = 'FENCE_BADVALUE ' .. msg })
end

-- A decimal argument (TTL, MaxGen, generation); rejected before any key is read.
local function fc_int(v, name)
  if type(v) ~= 'string' or not string.match(v, '^%d+$') then fc_fail(name .. ' must be a non-negative integer') end
  return tonumber(v)
end

-- An owner id: non-empty, without ':' so the encoding splits unambiguously.
local function fc_owner(v)
  if type(v) ~= 'string' or v == '' or string.find(v, ':', 1, true) then fc_fail('owner must be a non-empty id without ":"') end
  return v
end

-- A GET reply of a generation counter (false = missing = 0); anything else is a defect, not a zero.
local function fc_counter(v, name)
  if not v then return 0 end
  if not string.match(v, '^%d+$') then fc_fail(name .. ' is not a generation counter') end
  return tonumber(v)
end

-- A GET reply of a lease key: nil when free, {owner, gen} when live.
local function fc_lease(v, name)
  if not v then return nil end
  local owner, gen = string.match(v, '^([^:]+):(%d+)$')
  if not owner then fc_fail(name .. ' is not a lease') end
  return { owner = owner, gen = tonumber(gen) }
end

local function fc_encode(owner, gen)
  return owner .. ':' .. gen
end

-- True when the lease is live and is exactly (owner, gen): the owner+generation guard.
local function fc_is(lease, owner, gen)
  return lease ~= nil and lease.owner == owner and lease.gen == gen
end

local function fc_held(lease)
  return { 'held', lease.owner, lease.gen }
end

local function fc_found(lease, where)
  if not lease then return { 'none' } end
  return { 'lease', lease.owner, lease.gen, where }
end

-- validate_fenced_header's decision, shared by every version: the frame (owner, gen) passes only
-- against the live lease and never below the known generation (the fence).
local function fc_validate(lease, known, owner, gen)
  if not lease then return { 0, 'no-lease' } end
  if gen < known then return { 0, 'stale' } end
  if lease.owner ~= owner or lease.gen ~= gen then return { 0, 'not-owner' } end
  return { 1, 'ok' }
end
