-- expire: one batch, its own short transaction.
DELETE FROM {table}
WHERE {expired}{range}
