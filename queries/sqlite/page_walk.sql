-- expire: no pages to walk here; batches walk the rowid or primary key. No row.
SELECT ?1 WHERE 0
