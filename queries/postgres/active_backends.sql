-- The load a writing run paces to: backends of this database running a
-- statement, this session left out.
SELECT count(*)::text
FROM pg_stat_activity
WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
