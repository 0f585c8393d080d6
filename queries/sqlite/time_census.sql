-- How a time column's values spread over the ways SQLite keeps times (epoch
-- numbers plausible in seconds or milliseconds, Julian days, ISO-8601 text of
-- each shape, far-future "never" markers) and what is unreadable; the
-- storage class tells whether ordering by the stored value orders by time.
-- idemctl_time_class is registered on every connection idemctl opens.
SELECT idemctl_time_class({column}) AS class, count(*) AS n, typeof({column}) AS storage
FROM {table}
GROUP BY 1, 3
