-- Tables and views: to check a name, and to suggest the closest.
SELECT name
FROM sqlite_schema
WHERE type IN ('table', 'view')
  AND name NOT LIKE 'sqlite_%'
  AND ? = 'main'
ORDER BY 1
