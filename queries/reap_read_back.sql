-- reap: a batch's keys still in progress with the lock times that were read;
-- {lock} locks them for the batch's transaction, passing over keys a live
-- transaction holds (FOR UPDATE SKIP LOCKED), where the engine can.
SELECT {select}
FROM {table}
WHERE {keys}{lock}
