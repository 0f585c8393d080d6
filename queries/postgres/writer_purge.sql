-- expire's session: a batch waits at most a second for a row a live writer
-- holds, and fails rather than queue the writers behind it.
SET lock_timeout = '1s'
