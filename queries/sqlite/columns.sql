-- Columns of one table: name, declared type, default expression, no generated
-- marker, the column's place in the primary key (0 when not in it), and the
-- declared type again (SQLite has no domains), whether it is NOT NULL, and
-- whether a foreign key holds it.
SELECT name,
       type AS data_type,
       dflt_value AS default_expr,
       '' AS generated,
       CAST(pk AS TEXT) AS pk_position,
       type AS base_type,
       CAST("notnull" AS TEXT) AS not_null,
       CASE WHEN EXISTS (SELECT 1 FROM pragma_foreign_key_list(?2) f WHERE f."from" = name)
            THEN '1' ELSE '0' END AS foreign_key
FROM pragma_table_info(?2)
WHERE ?1 = 'main'
ORDER BY cid
