-- scan: every row of the creation table in created-at order, the compared
-- columns folded into one value. An index on the created-at column gives
-- the order without a sort.
SELECT {id_text}, {created_us}, {fold}, {key_text}, {by_text}, {sum_text}
FROM {table}
WHERE {created_at} IS NOT NULL{filters}
ORDER BY {created_at}, {id}
