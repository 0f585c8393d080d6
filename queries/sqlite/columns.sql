-- Columns of one table: name, declared type, default expression, no generated
-- marker, the column's place in the primary key (0 when not in it), and the
-- declared type again (SQLite has no domains), and whether it is NOT NULL.
SELECT name,
       type AS data_type,
       dflt_value AS default_expr,
       '' AS generated,
       CAST(pk AS TEXT) AS pk_position,
       type AS base_type,
       CAST("notnull" AS TEXT) AS not_null
FROM pragma_table_info(?2)
WHERE ?1 = 'main'
ORDER BY cid
