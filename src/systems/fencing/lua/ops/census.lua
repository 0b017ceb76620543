-- census: the number of live leases among the declared lease keys (observed, never assumed from
-- elapsed time). The C-gate counts the old keyspace; the rollback into O counts the new one.
-- KEYS: lease keys. Returns the count.
local live = 0
for i = 1, #KEYS do
  if fc_lease(redis.call('GET', KEYS[i]), 'lease ' .. i) then live = live + 1 end
end
return live
