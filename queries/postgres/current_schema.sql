-- The schema an unqualified table name resolves to.
SELECT current_schema()::text
