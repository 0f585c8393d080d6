-- expire on PostgreSQL 14+: one batch, its own short transaction. The pages
-- of one range are read by a TID range scan, and at most {limit} of their
-- expired rows are deleted, whatever the range holds. (A RETURNING clause
-- to count them cost 40% more: the count is the statement's row count.)
DELETE FROM {table}
WHERE ctid = ANY(ARRAY(
        SELECT ctid FROM {table}
        WHERE {expired}{range}
        LIMIT {limit}))
  AND {expired}
