-- Whether a VACUUM (autovacuum's or anyone's) is working on the table. $1: the table as SQL.
SELECT (count(*) > 0)::text FROM pg_stat_progress_vacuum WHERE relid = to_regclass($1)
