-- The leaf partitions of a partitioned table, nested ones included (none for
-- a plain table): schema, name, its bound as PostgreSQL writes it, its direct
-- parent's strategy (r range, l list, h hash) and key column when the key is
-- one plain column, the planner's rows and its bytes, how deep it is, its
-- direct parent (schema-qualified and quoted), and whether that parent has a
-- default partition.
SELECT n.nspname::text AS schema_name,
       c.relname::text AS name,
       pg_get_expr(c.relpartbound, c.oid) AS bound,
       pt.partstrat::text AS strategy,
       CASE WHEN pt.partnatts = 1 AND pt.partattrs[0] <> 0
            THEN (SELECT a.attname::text FROM pg_catalog.pg_attribute a
                  WHERE a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]) END AS key_column,
       GREATEST(c.reltuples, 0)::int8 AS rows_estimate,
       pg_total_relation_size(c.oid)::int8 AS total_bytes,
       t.level::text AS level,
       CAST(t.parentrelid AS regclass)::text AS parent,
       CASE WHEN pt.partdefid <> 0 THEN 'default' ELSE '' END AS parent_default
FROM pg_catalog.pg_partition_tree(CAST($1 AS regclass)) t
JOIN pg_catalog.pg_class c ON c.oid = t.relid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_partitioned_table pt ON pt.partrelid = t.parentrelid
WHERE t.isleaf AND t.level > 0
ORDER BY t.level, c.relname
