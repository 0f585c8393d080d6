-- What a column may hold: the table's definition, read for its CHECK clauses.
SELECT 'check', sql
FROM sqlite_schema
WHERE type = 'table' AND name = ?2 AND ?1 = 'main' AND ?3 IS NOT NULL AND ?4 IS NOT NULL AND ?5 IS NOT NULL
