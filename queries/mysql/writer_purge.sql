-- expire's session: a batch waits at most a second for a row a live writer
-- holds; read committed, so that InnoDB locks only the rows a batch deletes,
-- not the gaps it scans, which live inserts would wait on.
SET SESSION innodb_lock_wait_timeout = 1;
SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED
