-- Columns of other tables that may hold a row id of the scanned table: one
-- row per column that a single-column foreign key holds, or whose name ends
-- in _id or _type (a link by name, or a polymorphic pair), with the table a
-- foreign key points to and the column it references (NULL when none).
SELECT c.relname::text AS child,
       a.attname::text AS column_name,
       r.relname::text AS referenced_table,
       ra.attname::text AS referenced_column
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p') AND NOT c.relispartition
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_constraint f
       ON f.conrelid = c.oid AND f.contype = 'f' AND cardinality(f.conkey) = 1 AND f.conkey[1] = a.attnum
LEFT JOIN pg_catalog.pg_class r ON r.oid = f.confrelid
LEFT JOIN pg_catalog.pg_attribute ra ON ra.attrelid = f.confrelid AND ra.attnum = f.confkey[1]
WHERE n.nspname = $1
  AND a.attnum > 0
  AND NOT a.attisdropped
  AND (f.oid IS NOT NULL OR a.attname LIKE '%\_id' OR a.attname LIKE '%\_type')
ORDER BY 1, 2
