-- Confirming candidates: the rows of one batch of ids, every value as text;
-- the select list comes from Dialect::lookup_select.
SELECT {select}
FROM {table}
WHERE {id} IN ({ids})
