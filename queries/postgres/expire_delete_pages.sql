-- expire on PostgreSQL 14+: one batch, its own short transaction. The pages
-- of one range are read by a TID range scan, and at most {limit} of their
-- expired rows are deleted (in page order), whatever the range holds; the
-- count and the last page reached steer the next range.
WITH gone AS (
    DELETE FROM {table}
    WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM {table}
            WHERE {expired}{range}
            ORDER BY ctid
            LIMIT {limit}))
      AND {expired}
    RETURNING ctid
)
SELECT count(*), max((ctid::text::point)[0])::int8
FROM gone
