-- expire: the rows on the table's first {pages} pages (a TID range scan).
SELECT count(*) FROM {table} WHERE ctid < '({pages},0)'::tid
