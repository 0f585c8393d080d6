-- size: rows written each UTC day (days since the epoch) over the last days;
-- the same on every engine: the day expression comes from the dialect.
SELECT {day} AS day, count(*) AS written
FROM {table}
WHERE {since}
  AND {until}
GROUP BY 1
ORDER BY 1
