-- size: one table's pages from the dbstat virtual table: the table's b-tree
-- pages, its overflow pages (values too long for one page) and the pages of
-- its indexes. Rows are counted: SQLite keeps no free estimate.
SELECT (SELECT count(*) FROM {table}) AS rows_estimate,
       (SELECT COALESCE(sum(pgsize), 0) FROM dbstat WHERE name = ?2 AND pagetype <> 'overflow') AS table_bytes,
       (SELECT COALESCE(sum(pgsize), 0) FROM dbstat
         WHERE name IN (SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?2)) AS index_bytes,
       (SELECT COALESCE(sum(pgsize), 0) FROM dbstat WHERE name = ?2 AND pagetype = 'overflow') AS overflow_bytes,
       NULL AS total_bytes,
       NULL AS stats_as_of
WHERE ?1 = 'main'
