-- SQLite: a database file opened for writing takes writes; nothing to ask.
SELECT 'false', 'off', NULL
