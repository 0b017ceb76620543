-- A command newer than the key specs the check knows (Valkey 9's HGETEX): never passed in silence.
return server.call('HGETEX', KEYS[1], 'EX', 10, 'FIELDS', 1, 'f') --! unknown-command
