-- stuck: keys in progress past the shortest limit (a lease deadline passed,
-- a lock time, or an abandoned key's last attempt or creation, older than
-- the shortest maximum duration); each key's own operation's limit is
-- applied to these. Oldest first.
SELECT {select}
FROM {table}
WHERE {in_progress} AND {due}
ORDER BY {order}
