-- size: the table's insert counter and its live and dead rows as the
-- statistics count them, summed over its leaf partitions when it is
-- partitioned. $1: the table as SQL.
SELECT sum(s.n_tup_ins)::text, sum(s.n_dead_tup)::text, sum(s.n_live_tup)::text
FROM pg_stat_user_tables s
WHERE s.relid = to_regclass($1)
   OR s.relid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(to_regclass($1)) t WHERE t.isleaf)
