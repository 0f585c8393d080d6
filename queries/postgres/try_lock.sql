-- The table's lock for a writing run, taken without waiting (held by the
-- session): an advisory lock keyed by a hash of the whole name ($2; $1, the
-- name's start, is for engines that must cut names short).
SELECT pg_try_advisory_lock(hashtextextended($2, 0))::text
