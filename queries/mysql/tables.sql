-- Tables and views in one database: to check a name, and to suggest the closest.
SELECT CAST(table_name AS CHAR)
FROM information_schema.tables
WHERE table_schema = ?
ORDER BY 1
