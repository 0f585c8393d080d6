-- expire's session: read committed, so that InnoDB locks only the rows a
-- batch deletes, not the gaps it scans, which live inserts would wait on.
-- (How long a batch waits on a row is set apart: Writer::row_wait.)
SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED
