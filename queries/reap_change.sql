-- reap: a batch's keys, locked and as read, released or failed in one statement.
UPDATE {table}
SET {set}
WHERE {keys}
