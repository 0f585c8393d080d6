-- size: the next value of the table's AUTO_INCREMENT column (MySQL 8 reads
-- it fresh once information_schema_stats_expiry is 0, as size sets it).
SELECT CAST(auto_increment AS SIGNED)
FROM information_schema.tables
WHERE table_schema = ?
  AND table_name = ?
