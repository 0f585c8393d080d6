-- One global status variable by name (Threads_running, ...): MariaDB's
-- information_schema, else MySQL 8's performance_schema; tried in turn.
SELECT VARIABLE_NAME, VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = UPPER(?);
SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = ?
