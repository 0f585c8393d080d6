-- InnoDB's purge position: Trx id counter and Purge done for trx's n:o in
-- the status text (its third column). Needs the PROCESS privilege.
SHOW ENGINE INNODB STATUS
