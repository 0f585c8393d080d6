-- How an integer time column's values spread over the units they are
-- plausible in: seconds or milliseconds from 1990 to ten years ahead, far-
-- future "never" markers (9999-12-31, 2^31 - 1, 2^32 - 1), and the rest.
SELECT CASE
         WHEN {column} IS NULL THEN 'null'
         WHEN {column} IN (2147483647, 4294967295) OR {column} >= {never_ms_lo}
              OR ({column} >= {never_s_lo} AND {column} < {never_s_hi}) THEN 'never'
         WHEN {column} BETWEEN {s_lo} AND {s_hi} THEN 's'
         WHEN {column} BETWEEN {ms_lo} AND {ms_hi} THEN 'ms'
         ELSE 'outside'
       END AS class,
       count(*) AS n,
       'integer' AS storage
FROM {table}
GROUP BY 1
