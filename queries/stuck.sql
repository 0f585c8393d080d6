-- stuck: keys in progress whose lock time is older than the shortest maximum
-- duration; each key's own operation's duration is applied to these.
SELECT {select}
FROM {table}
WHERE {in_progress} AND {lock_before}
ORDER BY {lock}
