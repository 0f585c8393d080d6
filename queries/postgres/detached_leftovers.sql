-- Tables an earlier expire detached from a partitioned table to drop, and did
-- not drop (it stopped between the two): marked by their comment, $1. Those
-- still attached but detaching (DETACH CONCURRENTLY stopped halfway, PG 14+)
-- are 'pending'; a table still plainly attached is left to the normal walk.
SELECT n.nspname::text, c.relname::text,
       CASE WHEN c.relispartition THEN 'pending' ELSE '' END
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'r'
  AND obj_description(c.oid, 'pg_class') = $1
  AND (NOT c.relispartition
       OR EXISTS (SELECT 1 FROM pg_catalog.pg_inherits i
                  WHERE i.inhrelid = c.oid AND to_jsonb(i) ->> 'inhdetachpending' = 'true'))
