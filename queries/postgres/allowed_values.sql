-- What a column may hold: its enum type's labels, and the CHECK constraints
-- on it (their definitions, read for a list of values).
SELECT 'label', e.enumlabel::text
FROM pg_catalog.pg_attribute a
JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_enum e ON e.enumtypid = a.atttypid
WHERE n.nspname = $1 AND c.relname = $2 AND a.attname = $3
UNION ALL
SELECT 'check', pg_get_constraintdef(k.oid)
FROM pg_catalog.pg_constraint k
JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (k.conkey)
WHERE k.contype = 'c' AND n.nspname = $4 AND c.relname = $5 AND a.attname = $3
