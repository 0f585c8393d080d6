-- The planner's row count, summed over the leaf partitions of a partitioned
-- table: free, and close enough for a progress bar.
SELECT sum(GREATEST(c.reltuples, 0))::int8
FROM (SELECT c0.oid FROM pg_catalog.pg_class c0 JOIN pg_catalog.pg_namespace n0 ON n0.oid = c0.relnamespace
      WHERE n0.nspname = $1 AND c0.relname = $2) x
JOIN pg_catalog.pg_class c
  ON (c.oid = x.oid AND c.relkind <> 'p')
  OR c.oid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(x.oid) t WHERE t.isleaf)
