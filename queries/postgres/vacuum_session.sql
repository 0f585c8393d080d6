-- The VACUUM working on the table, in words. $1: the table as SQL.
SELECT 'a VACUUM (pid ' || a.pid
       || CASE WHEN a.query LIKE 'autovacuum:%' THEN ', autovacuum' ELSE ', ' || coalesce(a.usename, '?') END
       || ', phase ' || v.phase || ')'
FROM pg_stat_progress_vacuum v
JOIN pg_stat_activity a ON a.pid = v.pid
WHERE v.relid = to_regclass($1)
LIMIT 1
