-- size: one table's storage from information_schema, which InnoDB fills
-- from its persistent statistics: refreshed by ANALYZE TABLE and after about
-- a tenth of the rows change, so rows are an estimate. Overflow pages of
-- long values are counted in data_length: there is no separate figure.
SELECT CAST(table_rows AS SIGNED) AS rows_estimate,
       CAST(data_length AS SIGNED) AS table_bytes,
       CAST(index_length AS SIGNED) AS index_bytes,
       NULL AS overflow_bytes,
       CAST(data_length + index_length AS SIGNED) AS total_bytes,
       CAST(DATE_FORMAT(update_time, '%Y-%m-%dT%H:%i:%s') AS CHAR) AS stats_as_of
FROM information_schema.tables
WHERE table_schema = ?
  AND table_name = ?
