-- size: the size of the table's own file (innodb_file_per_table) on
-- MariaDB: current, where the statistics lag. Needs the PROCESS privilege.
SELECT CAST(file_size AS SIGNED)
FROM information_schema.innodb_sys_tablespaces
WHERE name = ?
