local v = redis['call']('GET', KEYS[1])
redis["pcall"]('DEL', KEYS[2])
return v
