-- SQLite takes the table's lock as a locked file beside the database: no SQL.
SELECT NULL
