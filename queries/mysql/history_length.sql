-- InnoDB's history list length: committed transactions whose undo records
-- purge has not yet removed. MariaDB names it in GLOBAL_STATUS, MySQL 8 in
-- INNODB_METRICS; tried in turn.
SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_HISTORY_LIST_LENGTH';
SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len'
