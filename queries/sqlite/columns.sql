-- Columns of one table: name, declared type, default expression, and the
-- column's place in the primary key (0 when not in it).
SELECT name,
       type AS data_type,
       dflt_value AS default_expr,
       CAST(pk AS TEXT) AS pk
FROM pragma_table_info(?2)
WHERE ?1 = 'main'
ORDER BY cid
