-- MySQL 8 caches information_schema's table figures for a day unless told
-- otherwise; MariaDB has no such cache (nor the variable), and refuses it.
SET SESSION information_schema_stats_expiry = 0
