-- No free estimate in SQLite: the largest rowid is close for append-mostly tables.
SELECT max(rowid) FROM {table}
