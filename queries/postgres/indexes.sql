-- doctor: every index of one table with its leading column (NULL for an
-- expression) and whether it is unique or partial.
SELECT i.relname::text AS index_name,
       a.attname::text AS first_column,
       CASE WHEN x.indisunique THEN 'unique' ELSE 'index' END AS kind,
       CASE WHEN x.indpred IS NULL THEN 'full' ELSE 'partial' END AS coverage
FROM pg_catalog.pg_index x
JOIN pg_catalog.pg_class c ON c.oid = x.indrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid
LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = x.indkey[0] AND x.indkey[0] > 0
WHERE n.nspname = $1
  AND c.relname = $2
ORDER BY i.relname
