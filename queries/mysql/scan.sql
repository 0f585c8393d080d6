-- scan: every row of the creation table in created-at order; the select list
-- comes from Dialect::scan_select. Rows with equal times are put in id order
-- by the client: sorting on one key is markedly cheaper for the server.
SELECT {select}
FROM {table}
WHERE {created_at} IS NOT NULL{filters}
ORDER BY {order}
