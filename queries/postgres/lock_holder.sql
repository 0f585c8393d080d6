-- Who holds a lock on a table that stops others from reading or writing it:
-- the session's pid, role, state and its query's first words.
-- $1: the table as SQL; $2: the pid of the session that waited (left out).
SELECT format('pid %s (%s, %s: %s)', a.pid, a.usename, a.state,
              left(regexp_replace(coalesce(a.query, ''), '\s+', ' ', 'g'), 60))
FROM pg_locks l
JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'relation'
  AND l.relation = to_regclass($1)
  AND l.granted
  AND l.mode IN ('ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')
  AND l.pid <> pg_backend_pid()
  AND l.pid <> $2
ORDER BY l.mode = 'AccessExclusiveLock' DESC, a.xact_start
LIMIT 1
