-- The table's dead tuples as its statistics count them. $1: the table as SQL.
SELECT n_dead_tup::text FROM pg_stat_user_tables WHERE relid = to_regclass($1)
