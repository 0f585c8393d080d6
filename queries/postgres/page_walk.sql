-- expire: the table's pages, where batches walk them by ctid range (TID range
-- scans came with PostgreSQL 14; before it, NULL: the primary key is walked).
-- A view, a foreign table or a partitioned parent has no pages of its own:
-- NULL too (a partitioned parent's leaves are walked one by one).
SELECT CASE WHEN current_setting('server_version_num')::int >= 140000
             AND (SELECT relkind FROM pg_catalog.pg_class WHERE oid = CAST($1 AS regclass)) IN ('r', 'm', 't')
            THEN (pg_relation_size(CAST($1 AS regclass)) / current_setting('block_size')::int)::int8
       END
