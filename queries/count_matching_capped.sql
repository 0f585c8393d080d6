-- The rows of a table a condition matches, counted up to {limit}: past it the count reads "at least".
SELECT count(*) FROM (SELECT 1 AS x FROM {table} WHERE {condition} LIMIT {limit}) s
