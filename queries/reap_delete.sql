-- reap --action delete: a batch's keys, locked and as read, deleted in one statement.
DELETE FROM {table}
WHERE {keys}
