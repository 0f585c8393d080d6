-- Columns of one table: name, type, default expression, auto_increment or ON
-- UPDATE marker (or 'on update trigger' for a column a BEFORE UPDATE trigger
-- sets with SET NEW.column),
-- the place in the primary key (0 here: it comes from the unique indexes), and
-- the type again (MySQL has no domains), whether it is NOT NULL, and whether
-- a foreign key holds it.
SELECT CAST(column_name AS CHAR) AS name,
       CAST(column_type AS CHAR) AS data_type,
       CAST(column_default AS CHAR) AS default_expr,
       CASE WHEN EXISTS (SELECT 1 FROM information_schema.triggers g
                         WHERE g.event_object_schema = c.table_schema AND g.event_object_table = c.table_name
                           AND g.event_manipulation = 'UPDATE' AND g.action_timing = 'BEFORE'
                           AND LOWER(REPLACE(g.action_statement, '`', ''))
                               REGEXP CONCAT('new[[:space:]]*\\.[[:space:]]*', LOWER(c.column_name), '[[:space:]]*:?='))
            THEN CONCAT(CAST(extra AS CHAR), ' on update trigger')
            ELSE CAST(extra AS CHAR) END AS generated,
       '0' AS pk_position,
       CAST(column_type AS CHAR) AS base_type,
       CASE WHEN is_nullable = 'NO' THEN '1' ELSE '0' END AS not_null,
       CASE WHEN EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                         WHERE k.table_schema = c.table_schema AND k.table_name = c.table_name
                           AND k.column_name = c.column_name AND k.referenced_table_name IS NOT NULL)
            THEN '1' ELSE '0' END AS foreign_key
FROM information_schema.columns c
WHERE c.table_schema = ?
  AND c.table_name = ?
ORDER BY ordinal_position
