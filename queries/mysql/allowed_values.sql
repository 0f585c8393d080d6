-- What a column may hold: its ENUM type, and the table's CHECK constraints
-- (MariaDB's information_schema; read for a list of values).
SELECT 'type', CAST(column_type AS CHAR)
FROM information_schema.columns
WHERE table_schema = ? AND table_name = ? AND column_name = ? AND data_type IN ('enum', 'set')
UNION ALL
SELECT 'check', CAST(check_clause AS CHAR)
FROM information_schema.check_constraints
WHERE constraint_schema = ? AND table_name = ?
