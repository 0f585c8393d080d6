-- size: the size of the table's own file (innodb_file_per_table) on MySQL 8:
-- current, where the statistics lag. Needs the PROCESS privilege.
SELECT CAST(file_size AS SIGNED)
FROM information_schema.innodb_tablespaces
WHERE name = ?
