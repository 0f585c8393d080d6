-- Unique indexes (the primary key among them) of one table, one row per
-- indexed column in index order; an expression column has a NULL name.
SELECT i.relname::text AS index_name,
       CASE WHEN x.indisprimary THEN 'primary' ELSE 'unique' END AS kind,
       a.attname::text AS column_name
FROM pg_catalog.pg_index x
JOIN pg_catalog.pg_class c ON c.oid = x.indrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid
CROSS JOIN LATERAL unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum AND k.attnum > 0
WHERE n.nspname = $1
  AND c.relname = $2
  AND x.indisunique
  AND k.ord <= x.indnkeyatts
ORDER BY i.relname, k.ord
