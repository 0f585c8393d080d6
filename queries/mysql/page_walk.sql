-- expire: no pages to walk here; batches walk the primary key (InnoDB's
-- clustered order). No row.
SELECT CAST(? AS CHAR) FROM DUAL WHERE 1 = 0
