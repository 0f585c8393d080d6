-- size: one table's storage, summed over its leaf partitions when it is
-- partitioned (the parent itself holds nothing). Table bytes are the heap with
-- its free-space and visibility maps; TOAST (out-of-line values) with its own
-- index is counted apart; rows are the planner's estimate (-1: never analyzed);
-- the statistics' time is the oldest leaf's.
SELECT CASE WHEN bool_and(c.reltuples < 0) THEN -1 ELSE sum(GREATEST(c.reltuples, 0)) END::int8 AS rows_estimate,
       sum(pg_table_size(c.oid) - COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0))::int8 AS table_bytes,
       sum(pg_indexes_size(c.oid))::int8 AS index_bytes,
       sum(COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0))::int8 AS overflow_bytes,
       sum(pg_total_relation_size(c.oid))::int8 AS total_bytes,
       to_char(min(GREATEST(s.last_analyze, s.last_autoanalyze)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS stats_as_of
FROM (SELECT c0.oid FROM pg_catalog.pg_class c0 JOIN pg_catalog.pg_namespace n0 ON n0.oid = c0.relnamespace
      WHERE n0.nspname = $1 AND c0.relname = $2) x
JOIN pg_catalog.pg_class c
  ON (c.oid = x.oid AND c.relkind <> 'p')
  OR c.oid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(x.oid) t WHERE t.isleaf)
LEFT JOIN pg_catalog.pg_stat_all_tables s ON s.relid = c.oid
