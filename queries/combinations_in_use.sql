-- The distinct combinations of some columns' values (as text) among the
-- first {sample} rows: the operations in use, say.
SELECT DISTINCT {values} FROM (SELECT {inner} FROM {table} LIMIT {sample}) s
