-- Columns of other tables that may hold a row id of the scanned table: one
-- row per column that a foreign key holds, or whose name ends in _id or _type
-- (a link by name, or a polymorphic pair), with the table a foreign key
-- points to and the column it references (NULL: the referenced primary key).
SELECT m.name AS child,
       p.name AS column_name,
       f."table" AS referenced_table,
       f."to" AS referenced_column
FROM sqlite_schema m
JOIN pragma_table_info(m.name) p
LEFT JOIN pragma_foreign_key_list(m.name) f ON f."from" = p.name
WHERE m.type = 'table'
  AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\'
  AND ?1 = 'main'
  AND (f."table" IS NOT NULL OR p.name LIKE '%\_id' ESCAPE '\' OR p.name LIKE '%\_type' ESCAPE '\')
ORDER BY 1, 2
