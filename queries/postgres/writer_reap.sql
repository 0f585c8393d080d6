-- reap's session: live writers hold a key at most one short transaction;
-- never wait long on one.
SET lock_timeout = '2s'
