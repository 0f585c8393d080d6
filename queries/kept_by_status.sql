-- The rows a condition matches, counted by a value (a status, as text), the
-- most first.
SELECT {value} AS v, count(*) AS n FROM {table} WHERE {condition} GROUP BY {value} ORDER BY n DESC
