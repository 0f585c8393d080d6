-- Of a sample of rows with both times, how many have their expiry time at or
-- before their creation time (microseconds since the epoch, both).
SELECT count(*), count(CASE WHEN e <= c THEN 1 END)
FROM (SELECT {expires} AS e, {created} AS c FROM {table}
      WHERE {expires} IS NOT NULL AND {created} IS NOT NULL LIMIT 1000) s
