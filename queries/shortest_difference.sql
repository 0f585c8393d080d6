-- The shortest difference between two times (microseconds) among the first
-- {sample} rows: keys' lifetimes, say.
SELECT min(d) FROM (SELECT ({a}) - ({b}) AS d FROM {table} LIMIT {sample}) s WHERE d IS NOT NULL
