-- Unique indexes (the primary key among them) of one table, one row per
-- indexed column in index order; an expression column has a NULL name.
SELECT CAST(index_name AS CHAR) AS index_name,
       CASE WHEN index_name = 'PRIMARY' THEN 'primary' ELSE 'unique' END AS kind,
       CAST(column_name AS CHAR) AS column_name
FROM information_schema.statistics
WHERE table_schema = ?
  AND table_name = ?
  AND non_unique = 0
ORDER BY index_name, seq_in_index
