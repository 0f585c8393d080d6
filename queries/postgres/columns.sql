-- Columns of one table: name, type, default expression, identity marker, and
-- the place in the primary key (0 here: it comes from the unique indexes).
SELECT a.attname::text AS name,
       format_type(a.atttypid, a.atttypmod) AS data_type,
       pg_get_expr(d.adbin, d.adrelid) AS default_expr,
       CASE WHEN a.attidentity <> '' THEN 'identity' ELSE '' END AS generated,
       '0' AS pk_position
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = $1
  AND c.relname = $2
  AND a.attnum > 0
  AND NOT a.attisdropped
ORDER BY a.attnum
