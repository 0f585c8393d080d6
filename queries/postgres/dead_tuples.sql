-- The table's dead tuples as its statistics count them, summed over its leaf
-- partitions when it is partitioned. $1: the table as SQL.
SELECT sum(s.n_dead_tup)::text
FROM pg_stat_user_tables s
WHERE s.relid = to_regclass($1)
   OR s.relid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(to_regclass($1)) t WHERE t.isleaf)
