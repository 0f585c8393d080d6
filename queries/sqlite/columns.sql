-- Columns of one table: name, declared type, default expression, no generated
-- marker, the column's place in the primary key (0 when not in it), and the
-- declared type again (SQLite has no domains).
SELECT name,
       type AS data_type,
       dflt_value AS default_expr,
       '' AS generated,
       CAST(pk AS TEXT) AS pk_position,
       type AS base_type
FROM pragma_table_info(?2)
WHERE ?1 = 'main'
ORDER BY cid
