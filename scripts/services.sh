#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432) and MariaDB (127.0.0.1:3306) are up,
# starting whichever is down, and waits until both answer.
set -euo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
mariadb_up() { mariadb-admin -h 127.0.0.1 -P 3306 -u root ping >/dev/null 2>&1; }

if ! pg_up; then
    echo "starting PostgreSQL" >&2
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
fi
if ! mariadb_up; then
    echo "starting MariaDB" >&2
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
fi
for _ in $(seq 60); do
    if pg_up && mariadb_up; then
        exit 0
    fi
    sleep 1
done
pg_up || echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2
mariadb_up || echo "MariaDB is not answering on 127.0.0.1:3306" >&2
exit 1
