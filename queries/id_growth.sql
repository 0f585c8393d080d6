-- size: the first and last minted id among the rows created since a point.
SELECT min({id}), max({id}) FROM {table} WHERE {since}
