-- On a standby: whether it is one, how far it has replayed the primary's
-- WAL, how long ago the primary committed the last transaction it
-- replayed (when it has not replayed all it received; else NULL), and
-- whether its WAL receiver streams (a stopped receiver does not catch up by
-- waiting).
SELECT pg_is_in_recovery()::text,
       pg_last_wal_replay_lsn()::text,
       CASE WHEN pg_last_wal_replay_lsn() < pg_last_wal_receive_lsn()
            THEN extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::text,
       (SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming')::text
