-- The distinct values of a column (as text) among the first {sample} rows:
-- enough to see every status in use, bounded on a big table.
SELECT DISTINCT v FROM (SELECT {value} AS v FROM {table} LIMIT {sample}) s
