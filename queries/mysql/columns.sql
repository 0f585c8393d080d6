-- Columns of one table: name, type, default expression, auto_increment marker,
-- the place in the primary key (0 here: it comes from the unique indexes), and
-- the type again (MySQL has no domains), and whether it is NOT NULL.
SELECT CAST(column_name AS CHAR) AS name,
       CAST(column_type AS CHAR) AS data_type,
       CAST(column_default AS CHAR) AS default_expr,
       CAST(extra AS CHAR) AS generated,
       '0' AS pk_position,
       CAST(column_type AS CHAR) AS base_type,
       CASE WHEN is_nullable = 'NO' THEN '1' ELSE '0' END AS not_null
FROM information_schema.columns
WHERE table_schema = ?
  AND table_name = ?
ORDER BY ordinal_position
