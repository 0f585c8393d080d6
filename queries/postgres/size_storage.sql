-- size: one table's storage. Table bytes are the heap with its free-space
-- and visibility maps; TOAST (out-of-line values) with its own index is
-- counted apart; rows are the planner's estimate (-1: never analyzed).
SELECT c.reltuples::int8 AS rows_estimate,
       (pg_table_size(c.oid) - COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0))::int8 AS table_bytes,
       pg_indexes_size(c.oid)::int8 AS index_bytes,
       COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0)::int8 AS overflow_bytes,
       pg_total_relation_size(c.oid)::int8 AS total_bytes,
       to_char(GREATEST(s.last_analyze, s.last_autoanalyze) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS stats_as_of
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_stat_all_tables s ON s.relid = c.oid
WHERE n.nspname = $1
  AND c.relname = $2
