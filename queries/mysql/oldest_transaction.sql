-- The oldest open transaction, in words: what holds InnoDB's purge back
-- (its read view keeps every later change's undo). Other sessions' need
-- the PROCESS privilege to be seen.
SELECT CONCAT('the transaction of thread ', t.trx_mysql_thread_id,
              ' (', COALESCE(p.USER, '?'), '@', COALESCE(p.HOST, '?'), '), open since ', t.trx_started,
              COALESCE(CONCAT(', running: ', LEFT(p.INFO, 60)), ''))
FROM information_schema.INNODB_TRX t
LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
WHERE t.trx_mysql_thread_id <> CONNECTION_ID()
ORDER BY t.trx_started
LIMIT 1
