-- The partitions of a partitioned table (none for a plain one), subpartitions
-- as their own rows: name, its bound as the server writes it, the method
-- (RANGE, RANGE COLUMNS, LIST, HASH, KEY) and expression, InnoDB's row
-- estimate and bytes, whether it is a subpartition, and its partition's name
-- (what ALTER TABLE drops), and no default partition (MySQL has none).
SELECT CAST(table_schema AS CHAR) AS schema_name,
       CAST(COALESCE(subpartition_name, partition_name) AS CHAR) AS name,
       CAST(partition_description AS CHAR) AS bound,
       CAST(partition_method AS CHAR) AS strategy,
       CAST(partition_expression AS CHAR) AS key_column,
       CAST(table_rows AS CHAR) AS rows_estimate,
       CAST(data_length + index_length AS CHAR) AS total_bytes,
       CASE WHEN subpartition_name IS NULL THEN '1' ELSE '2' END AS level,
       CAST(partition_name AS CHAR) AS parent,
       '' AS parent_default
FROM information_schema.partitions
WHERE table_schema = ?
  AND table_name = ?
  AND partition_name IS NOT NULL
ORDER BY partition_ordinal_position, subpartition_ordinal_position
