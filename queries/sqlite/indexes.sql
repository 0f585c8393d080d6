-- doctor: every index of one table with its leading column (NULL for an
-- expression) and whether it is unique or partial. An INTEGER PRIMARY KEY
-- is the rowid, not an index: columns.sql gives it.
SELECT il.name AS index_name,
       ii.name AS first_column,
       CASE WHEN il."unique" = 1 THEN 'unique' ELSE 'index' END AS kind,
       CASE WHEN il.partial = 1 THEN 'partial' ELSE 'full' END AS coverage
FROM pragma_index_list(?2) AS il
JOIN pragma_index_info(il.name) AS ii
WHERE ?1 = 'main'
  AND ii.seqno = 0
ORDER BY il.name
