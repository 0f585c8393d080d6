-- expire: the primary key of the last row of the next batch, walking the
-- primary key upward from where the previous batch ended.
SELECT {pk_text}
FROM {table}
WHERE {expired}{after}
ORDER BY {pk}
LIMIT 1 OFFSET {offset}
