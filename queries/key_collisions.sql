-- Among the first {sample} rows of a key table, with v0.. the scope and
-- operation columns and {key} the key: the rows read; the keys held by two
-- rows or more with the same scope and operation (a request stored twice);
-- the keys held under two scopes or operations or more (kept apart by them).
WITH s AS (SELECT {inner} FROM {table} LIMIT {sample})
SELECT
    (SELECT count(*) FROM s),
    (SELECT count(*) FROM (SELECT 1 AS x FROM s WHERE {key} IS NOT NULL GROUP BY {all} HAVING count(*) > 1) a),
    (SELECT count(*) FROM (
        SELECT {key} FROM (SELECT DISTINCT {all} FROM s WHERE {key} IS NOT NULL) d GROUP BY {key} HAVING count(*) > 1
    ) b)
