-- The session that holds a key row, told by the row's xmax (the locking or
-- updating transaction's id): its pid, role, state and its query's first
-- words; by pid and role only where the role may not see more. Empty where
-- the holder is not one transaction this role can see (several sharing a
-- lock, or another role's session whose transaction id is hidden).
coalesce((SELECT CASE WHEN a.state IS NULL OR a.query = '<insufficient privilege>'
                      THEN format('pid %s (%s)', a.pid, coalesce(a.usename, 'another role'))
                      ELSE format('pid %s (%s, %s: %s)', a.pid, a.usename, a.state,
                                  left(regexp_replace(coalesce(a.query, ''), '\s+', ' ', 'g'), 40)) END
          FROM pg_stat_activity a
          WHERE a.backend_xid = xmax
            -- (A multixact's id is no transaction's: the session must hold
            -- a lock on the table too.)
            AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.relation = tableoid)
          LIMIT 1), '')
