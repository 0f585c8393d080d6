-- expire: the table's pages, where batches walk them by ctid range (TID range
-- scans came with PostgreSQL 14; before it, NULL: the primary key is walked).
SELECT CASE WHEN current_setting('server_version_num')::int >= 140000
            THEN (pg_relation_size(CAST($1 AS regclass)) / current_setting('block_size')::int)::int8
       END
