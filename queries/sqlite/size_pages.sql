-- size, where SQLite was built without dbstat: the whole database file's
-- pages, the best figure there is.
SELECT (SELECT count(*) FROM {table}) AS rows_estimate,
       NULL AS table_bytes,
       NULL AS index_bytes,
       NULL AS overflow_bytes,
       (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size()) AS total_bytes,
       NULL AS stats_as_of
