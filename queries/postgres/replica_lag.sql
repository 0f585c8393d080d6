-- On a standby: whether it is one, how far its replay is behind (0 when it
-- has replayed all it received), and whether its WAL receiver streams (a
-- stopped receiver does not catch up by waiting).
SELECT pg_is_in_recovery()::text,
       CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
            ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::text,
       (SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming')::text
