-- Included by with-include.lua: takes the queue key from its caller.
function add_job(queue, payload)
  return redis.call('LPUSH', queue, payload)
end
