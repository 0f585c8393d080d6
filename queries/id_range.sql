-- The smallest and the largest id of a table: where the scan's slices are cut.
SELECT min({id}), max({id}) FROM {table}
