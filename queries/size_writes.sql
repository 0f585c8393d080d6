-- size: rows written in each span of time (UTC hours, as spans since the
-- epoch) from a point on; the same on every engine: the span expression
-- comes from the dialect.
SELECT {bucket} AS span, count(*) AS written
FROM {table}
WHERE {since}
GROUP BY 1
ORDER BY 1
