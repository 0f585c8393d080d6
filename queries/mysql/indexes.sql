-- doctor: every index of one table with its leading column (NULL for an
-- expression) and whether it is unique.
SELECT CAST(index_name AS CHAR) AS index_name,
       CAST(column_name AS CHAR) AS first_column,
       CASE WHEN non_unique = 0 THEN 'unique' ELSE 'index' END AS kind,
       'full' AS coverage
FROM information_schema.statistics
WHERE table_schema = ?
  AND table_name = ?
  AND seq_in_index = 1
ORDER BY index_name
