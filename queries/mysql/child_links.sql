-- Columns of other tables that may hold a row id of the scanned table: one
-- row per column that a foreign key holds, or whose name ends in _id or _type
-- (a link by name, or a polymorphic pair), with the table a foreign key
-- points to and the column it references (NULL when none).
SELECT CAST(c.table_name AS CHAR) AS child,
       CAST(c.column_name AS CHAR) AS column_name,
       CAST(k.referenced_table_name AS CHAR) AS referenced_table,
       CAST(k.referenced_column_name AS CHAR) AS referenced_column
FROM information_schema.columns c
JOIN information_schema.tables t
  ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
LEFT JOIN information_schema.key_column_usage k
       ON k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name
      AND k.referenced_table_name IS NOT NULL
WHERE c.table_schema = ?
  AND (k.referenced_table_name IS NOT NULL OR c.column_name LIKE '%\_id' OR c.column_name LIKE '%\_type')
ORDER BY 1, 2
