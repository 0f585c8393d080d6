-- The rows of a table a condition matches.
SELECT count(*) FROM {table} WHERE {condition}
