-- A replica's own status, read on the replica: MySQL 8.0.22+ and MariaDB
-- 10.5.1+ spell it REPLICA, older servers only SLAVE; the first that runs.
SHOW REPLICA STATUS;
SHOW SLAVE STATUS
