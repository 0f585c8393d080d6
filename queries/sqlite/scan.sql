-- scan: every row of the creation table in created-at order; the select list
-- comes from Dialect::scan_select. An index on the created-at column gives
-- the order without a sort.
-- The index also holds the primary key, so the id tie-break costs nothing.
SELECT {select}
FROM {table}
WHERE {created_at} IS NOT NULL{filters}
ORDER BY {order}, {id}
