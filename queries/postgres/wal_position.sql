-- The primary's WAL position now: a standby has caught up once it has replayed up to it.
SELECT pg_current_wal_lsn()::text
