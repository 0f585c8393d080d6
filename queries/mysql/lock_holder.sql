-- Who holds a metadata lock on a table: the connection id, user, command and
-- its statement's first words. Two sources, tried in turn (each may be
-- missing): MariaDB's METADATA_LOCK_INFO plugin, MySQL's performance_schema.
-- Each gives the holder and the kind of hold (`table`: a metadata lock).
-- ?: the schema, the table, the id of the connection that waited (left out).
SELECT CONCAT('connection ', p.ID, ' (', p.USER, ', ', p.COMMAND, ': ', LEFT(COALESCE(p.INFO, ''), 60), ')'), 'table'
FROM information_schema.METADATA_LOCK_INFO m
JOIN information_schema.PROCESSLIST p ON p.ID = m.THREAD_ID
WHERE m.TABLE_SCHEMA = ? AND m.TABLE_NAME = ? AND m.THREAD_ID <> ? AND m.THREAD_ID <> CONNECTION_ID()
LIMIT 1;
SELECT CONCAT('connection ', t.PROCESSLIST_ID, ' (', t.PROCESSLIST_USER, ', ', t.PROCESSLIST_COMMAND, ': ',
              LEFT(COALESCE(t.PROCESSLIST_INFO, ''), 60), ')'), 'table'
FROM performance_schema.metadata_locks m
JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID
WHERE m.OBJECT_SCHEMA = ? AND m.OBJECT_NAME = ? AND m.LOCK_STATUS = 'GRANTED'
  AND t.PROCESSLIST_ID <> ? AND t.PROCESSLIST_ID <> CONNECTION_ID()
LIMIT 1
