-- The rows of a table, counted.
SELECT count(*) FROM {table}
