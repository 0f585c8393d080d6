-- scan: every row of the creation table in created-at order; the select list
-- comes from Dialect::scan_select. An index on the created-at column gives
-- the order without a sort.
-- Rows with equal times are put in id order by the client: an id tie-break
-- here would add an incremental sort to the plan.
SELECT {select}
FROM {table}
WHERE {created_at} IS NOT NULL{filters}
ORDER BY {order}
