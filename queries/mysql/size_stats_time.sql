-- size: when InnoDB last computed the table's persistent statistics, where
-- the mysql schema is readable.
SELECT CAST(DATE_FORMAT(last_update, '%Y-%m-%dT%H:%i:%s') AS CHAR)
FROM mysql.innodb_table_stats
WHERE database_name = ?
  AND table_name = ?
