-- Whether this server takes writes: a replica runs with read_only on.
-- (Privileges are the server's to refuse: its message names the command and
-- the table.)
SELECT IF(@@global.read_only, 'true', 'false'), 'off', NULL
