-- Who holds, or waits ahead for, a lock on a table: the session's pid, role,
-- state and its query's first words, and the kind of hold: `table` (a lock
-- on the table itself), `queued` (a table lock requested ahead, with the
-- sessions it waits for: the ALTER TABLE behind an idle transaction), or
-- `rows` (row locks: the oldest transaction holding some, idle ones first).
-- A session the role may not see is named by pid and role only.
-- $1: the table as SQL; $2: the pid of the session that waited (left out).
WITH holders AS (
    SELECT l.pid,
           CASE WHEN l.mode IN ('ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')
                THEN CASE WHEN l.granted THEN 'table' ELSE 'queued' END
                ELSE 'rows' END AS kind
    FROM pg_locks l
    WHERE l.locktype = 'relation'
      AND l.relation = to_regclass($1)
      AND l.mode <> 'AccessShareLock'
      AND l.pid <> pg_backend_pid()
      AND l.pid <> $2
)
SELECT CASE WHEN a.state IS NULL OR a.query = '<insufficient privilege>'
            THEN format('pid %s (%s)', a.pid, coalesce(a.usename, 'another role'))
            ELSE format('pid %s (%s, %s: %s)', a.pid, a.usename, a.state,
                        left(regexp_replace(coalesce(a.query, ''), '\s+', ' ', 'g'), 60)) END
       || CASE WHEN h.kind <> 'queued' THEN '' ELSE coalesce(', itself waiting for ' || (
              SELECT string_agg(CASE WHEN b.state IS NULL OR b.query = '<insufficient privilege>'
                                     THEN format('pid %s (%s)', b.pid, coalesce(b.usename, 'another role'))
                                     ELSE format('pid %s (%s, %s: %s)', b.pid, b.usename, b.state,
                                                 left(regexp_replace(coalesce(b.query, ''), '\s+', ' ', 'g'), 60)) END,
                                '; ')
              FROM pg_stat_activity b
              WHERE b.pid = ANY (pg_blocking_pids(h.pid))), '') END,
       h.kind
FROM holders h
JOIN pg_stat_activity a ON a.pid = h.pid
ORDER BY CASE h.kind WHEN 'table' THEN 0 WHEN 'queued' THEN 1 ELSE 2 END,
         a.state = 'idle in transaction' DESC,
         a.xact_start NULLS LAST
LIMIT 1
