-- The schema an unqualified table name resolves to.
SELECT 'main'
