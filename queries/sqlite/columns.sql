-- Columns of one table: name, declared type, default expression, a generated
-- marker ('on update trigger' for a column an UPDATE trigger on the table
-- sets with `SET column =`), the column's place in the primary key (0 when
-- not in it), and the declared type again (SQLite has no domains), whether it
-- is NOT NULL, and whether a foreign key holds it.
SELECT p.name,
       type AS data_type,
       dflt_value AS default_expr,
       CASE WHEN EXISTS (SELECT 1 FROM sqlite_master g
                         WHERE g.type = 'trigger' AND g.tbl_name = ?2
                           AND lower(g.sql) LIKE '%update%on%'
                           AND (lower(replace(replace(replace(g.sql, '"', ''), '`', ''), char(10), ' '))
                                    LIKE '%set%' || lower(p.name) || ' =%'
                                OR lower(replace(replace(replace(g.sql, '"', ''), '`', ''), char(10), ' '))
                                    LIKE '%set%' || lower(p.name) || '=%'))
            THEN 'on update trigger' ELSE '' END AS generated,
       CAST(pk AS TEXT) AS pk_position,
       type AS base_type,
       CAST("notnull" AS TEXT) AS not_null,
       CASE WHEN EXISTS (SELECT 1 FROM pragma_foreign_key_list(?2) f WHERE f."from" = p.name)
            THEN '1' ELSE '0' END AS foreign_key
FROM pragma_table_info(?2) p
WHERE ?1 = 'main'
ORDER BY cid
