-- No free estimate in SQLite: the largest rowid is close for append-mostly
-- tables. (The schema and table are bound as on the other engines.)
SELECT max(rowid) FROM {table} WHERE ?1 IS NOT NULL AND ?2 IS NOT NULL
