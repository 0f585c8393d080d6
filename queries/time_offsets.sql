-- How closely time columns follow the created-at column: among the first
-- {sample} rows (no sort, so bounded on a big table), for each column the
-- rows where it is set and those where it lies within a few seconds of the
-- created-at time. {inner} gives each as microseconds since the epoch.
SELECT count(*), {counts}
FROM (SELECT {inner} FROM {table} WHERE {created_at} IS NOT NULL LIMIT {sample}) s
