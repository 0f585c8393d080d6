-- The table's lock for a writing run, taken without waiting (held by the
-- session). Lock names are limited to 64 characters: the name's start, and 40
-- hex characters of the SHA-256 of all of it.
SELECT CAST(GET_LOCK(CONCAT(?, ':', LEFT(SHA2(?, 256), 40)), 0) AS CHAR)
