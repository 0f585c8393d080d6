-- Unique indexes of one table, one row per indexed column in index order; an
-- expression column has a NULL name. An INTEGER PRIMARY KEY has no index here:
-- columns.sql gives it.
SELECT il.name AS index_name,
       CASE WHEN il.origin = 'pk' THEN 'primary' ELSE 'unique' END AS kind,
       ii.name AS column_name
FROM pragma_index_list(?2) AS il
JOIN pragma_index_info(il.name) AS ii
WHERE ?1 = 'main'
  AND il."unique" = 1
ORDER BY il.name, ii.seqno
