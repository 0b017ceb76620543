function log_job(id)
  redis.call('LPUSH', 'log', id) --! undeclared-key
end
