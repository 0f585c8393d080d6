-- The database an unqualified table name resolves to.
SELECT CAST(DATABASE() AS CHAR)
