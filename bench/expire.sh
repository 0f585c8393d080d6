#!/usr/bin/env bash
# Benchmark: idemctl expire (default options) against one unbatched DELETE
# on the same key table of N rows (default 1,000,000; 5,000,000 for the full
# run), 60% expired, in PostgreSQL and MariaDB, with a concurrent insert load.
#
# Each side is measured over the window of the work it causes: from its
# start until, on MariaDB, InnoDB's purge has passed every transaction
# committed before it returned (the purge of the deleted rows, which for a
# single DELETE runs long after the statement returns, counts), on
# PostgreSQL until the statement or the last batch commits. Rate and insert
# p99 are over that window; the p99 at rest is measured just before each side.
#
#   bench/expire.sh                    # both engines on the shared servers
#   N=5000000 bench/expire.sh pg mysql  # the full run
#   N=5000000 bench/expire.sh partitions-pg  # 30 daily partitions by expires_at, 20
#                                      # wholly past: the DELETE, expire, and
#                                      # expire --drop-partitions
#   bench/expire.sh replica-pg         # a private primary and streaming standby
#   bench/expire.sh replica-mysql      # a private MariaDB primary and replica
#   ARGS="--batch-size 5000 --batch-time 0s" bench/expire.sh mysql  # other options
#   SIDES=idemctl ARGS=--sleep-ratio=1 bench/expire.sh mysql  # idemctl alone, against
#                                      # the single DELETE's last measurement
#
# The replica runs start their own servers under a temp dir on spare ports
# (removed at the end), run both sides with a lag sampler on the replica,
# and idemctl with --replica-url and --max-lag 1s.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-1000000}
SIDES=${SIDES:-both}
read -r -a EXTRA <<<"${ARGS:-}"
ENGINES=("$@")
[ ${#ENGINES[@]} -gt 0 ] || ENGINES=(pg mysql)
PG_URL=${PG_URL:-postgres://root@127.0.0.1:5432/test}
MYSQL_URL=${MYSQL_URL:-mysql://root@127.0.0.1:3306/test}
OUT=bench/out
mkdir -p "$OUT"

cargo build --release --quiet --bin idemctl --example insert_load
BIN=${BIN:-target/release/idemctl}
LOAD=target/release/examples/insert_load

now() { date +%s.%N; }

# --- MariaDB access -------------------------------------------------------

mysql_at() { # URL ARGS...: the mariadb client on the URL's host, port and database
    local url=$1 rest host
    shift
    rest=${url#*://}
    host=${rest%%/*}
    host=${host#*@}
    mariadb -h "${host%:*}" -P "${host##*:}" -u root "${url##*/}" "$@"
}
hll() { mysql_at "$1" -N -e "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'" | cut -f2; }
# innodb_status URL FIELD: the number after FIELD in SHOW ENGINE INNODB STATUS.
innodb_status() {
    mysql_at "$1" -N -e "SHOW ENGINE INNODB STATUS" | tr '\t' '\n' | sed 's/\\n/\n/g' |
        awk -v f="$2" 'index($0, f) == 1 {print substr($0, length(f) + 1) + 0; exit}'
}

# --- one measured run -----------------------------------------------------

# measure URL TAG COMMAND...: the insert load runs 20 s at rest (TAG-rest),
# then COMMAND runs under it; on MariaDB the window goes on until InnoDB's
# purge has passed every transaction committed before COMMAND returned
# (`Purge done for trx's n:o <` at or past the `Trx id counter` read when it
# returned): the purge of everything COMMAND deleted, whatever the load's
# own transactions do meanwhile.
# Writes TAG.window (start end returned) and TAG.trace (each insert).
measure() {
    local url=$1 tag=$2 start returned end base=""
    shift 2
    INSERT_TRACE="$OUT/$tag.trace" "$LOAD" "$url" 3600 >"$OUT/$tag.load" &
    local load=$!
    sleep 20
    start=$(now)
    "$@" >"$OUT/$tag.out"
    returned=$(now)
    if [[ $url == mysql* ]]; then
        base=$(innodb_status "$url" "Trx id counter ")
        while [ "$(innodb_status "$url" "Purge done for trx's n:o < ")" -lt "$base" ]; do sleep 0.1; done
    fi
    end=$(now)
    echo "$start $end $returned ${base:-}" >"$OUT/$tag.window"
    sleep 1
    kill -TERM "$load"
    wait "$load" || true
}

# p99 TAG FROM TO: the p99 insert latency (ms) of the inserts that started in [FROM, TO).
p99() {
    awk -v a="$2" -v b="$3" '$1 >= a && $1 < b {print $2}' "$OUT/$1.trace" | sort -n |
        awk '{v[NR] = $1} END {if (NR == 0) {print 0; exit} i = int(NR * 0.99) + 1; if (i > NR) i = NR; print v[i]}'
}

# side TAG EXPIRED LABEL: one line for one side.
side() {
    local tag=$1 expired=$2 label=$3 start end returned rest during secs
    read -r start end returned _ <"$OUT/$tag.window"
    secs=$(echo "$end - $start" | bc -l)
    rest=$(p99 "$tag" "$(echo "$start - 19" | bc -l)" "$start")
    during=$(p99 "$tag" "$start" "$end")
    printf '  %-13s %7.2fs (returned after %6.2fs) %9.0f rows/s   insert p99 %7.2f ms, at rest %5.2f ms: %5.2fx\n' \
        "$label" "$secs" "$(echo "$returned - $start" | bc -l)" "$(echo "$expired / $secs" | bc -l)" \
        "$during" "$rest" "$(echo "$during / $rest" | bc -l)"
    echo "$secs" >"$OUT/$tag.secs"
}

json_field() { grep -o "\"$2\":[^,}]*" "$OUT/$1.out" | head -n1 | cut -d: -f2-; }

report() {
    local engine=$1 expired=$2 limit=$3
    printf '%-6s N=%s expired=%s idemctl options: %s\n' "$engine" "$N" "$expired" "${EXTRA[*]:-(defaults)}"
    side "$engine-delete" "$expired" "single DELETE"
    side "$engine-idemctl" "$expired" "idemctl"
    local waited
    waited=$(grep -o '"waited":{[^}]*}' "$OUT/$engine-idemctl.out" | head -n1)
    printf '  idemctl: %s batches, slowest %s ms, smallest %s rows, deleted %s; %s\n' \
        "$(json_field "$engine-idemctl" batches)" "$(json_field "$engine-idemctl" slowest_batch_ms)" \
        "$(json_field "$engine-idemctl" smallest_batch_rows)" "$(json_field "$engine-idemctl" rows_deleted)" "$waited"
    local d i rd ri
    d=$(cat "$OUT/$engine-delete.secs")
    i=$(cat "$OUT/$engine-idemctl.secs")
    read -r sd ed _ <"$OUT/$engine-delete.window"
    read -r si ei _ <"$OUT/$engine-idemctl.window"
    rd=$(echo "$(p99 "$engine-delete" "$sd" "$ed") / $(p99 "$engine-delete" "$(echo "$sd - 19" | bc -l)" "$sd")" | bc -l)
    ri=$(echo "$(p99 "$engine-idemctl" "$si" "$ei") / $(p99 "$engine-idemctl" "$(echo "$si - 19" | bc -l)" "$si")" | bc -l)
    printf '  targets: rate %.2fx the DELETE (>= 0.5); slowest batch %s ms (< 250); p99 %.2fx rest (<= %s; the DELETE %.2fx)\n' \
        "$(echo "$d / $i" | bc -l)" "$(json_field "$engine-idemctl" slowest_batch_ms)" "$ri" "$limit" "$rd"
}

# --- the tables -----------------------------------------------------------

build_pg() {
    psql "$1" -q -v ON_ERROR_STOP=1 <<SQL
DROP TABLE IF EXISTS idempotency_keys;
CREATE TABLE idempotency_keys (
    scope_id text NOT NULL, operation text NOT NULL, key text NOT NULL, request_hash bytea,
    status text NOT NULL, response_code int, response_body jsonb, locked_at timestamptz,
    created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
    PRIMARY KEY (scope_id, operation, key));
INSERT INTO idempotency_keys
SELECT 'cust_' || (g % 5000), 'POST /v1/orders', 'k-' || g, decode(md5(g::text), 'hex'), 'succeeded', 201,
       '{"status":"created"}', now() - interval '3 days', now() - interval '3 days',
       CASE WHEN g % 10 < 6 THEN now() - interval '1 hour' ELSE now() + interval '1 day' END
FROM generate_series(1, $N) g;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
VACUUM ANALYZE idempotency_keys;
-- Both runs start from a clean checkpoint, not amid the one the build set off.
CHECKPOINT;
SQL
}

build_mysql() {
    local url=$1
    mysql_at "$url" <<SQL
DROP TABLE IF EXISTS idempotency_keys;
CREATE TABLE idempotency_keys (
    scope_id VARCHAR(64) NOT NULL, operation VARCHAR(64) NOT NULL, \`key\` VARCHAR(64) NOT NULL, request_hash VARBINARY(32),
    status VARCHAR(32) NOT NULL, response_code INT, response_body JSON, locked_at DATETIME(6),
    created_at DATETIME(6) NOT NULL, expires_at DATETIME(6) NOT NULL,
    PRIMARY KEY (scope_id, operation, \`key\`));
INSERT INTO idempotency_keys
SELECT CONCAT('cust_', seq % 5000), 'POST /v1/orders', CONCAT('k-', seq), UNHEX(MD5(seq)), 'succeeded', 201,
       '{"status":"created"}', NOW(6) - INTERVAL 3 DAY, NOW(6) - INTERVAL 3 DAY,
       IF(seq % 10 < 6, NOW(6) - INTERVAL 1 HOUR, NOW(6) + INTERVAL 1 DAY)
FROM seq_1_to_$N
ORDER BY 1, 3;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
ANALYZE TABLE idempotency_keys;
SQL
    # Both runs start with the build's pages written out and its purge done,
    # as PostgreSQL's start from a CHECKPOINT: InnoDB would otherwise do
    # that work during the run.
    local pct age
    pct=$(mysql_at "$url" -N -e "SELECT @@GLOBAL.innodb_max_dirty_pages_pct")
    mysql_at "$url" -e "SET GLOBAL innodb_max_dirty_pages_pct = 0"
    while age=$(mysql_at "$url" -N -e "SHOW GLOBAL STATUS LIKE 'Innodb_checkpoint_age'" | cut -f2) &&
        [ -n "$age" ] && [ "$age" -ge 1000000 ]; do
        sleep 0.5
    done
    mysql_at "$url" -e "SET GLOBAL innodb_max_dirty_pages_pct = $pct"
    while [ "$(hll "$url")" -gt 0 ]; do sleep 0.5; done
}

bench_pg() {
    local expired=$((N * 6 / 10))
    if [ "$SIDES" = both ]; then
        build_pg "$PG_URL"
        measure "$PG_URL" pg-delete psql "$PG_URL" -q -c "DELETE FROM idempotency_keys WHERE expires_at < now()"
    fi
    build_pg "$PG_URL"
    measure "$PG_URL" pg-idemctl "$BIN" expire --database-url "$PG_URL" "${EXTRA[@]}" --format json --quiet
    report pg "$expired" 2
}

# build_pg_partitioned URL: the key table partitioned by day on expires_at,
# the day before yesterday's rows and older in 20 partitions wholly past the
# horizon, 10 more from today on; N rows spread evenly over the 30 days
# (today's partition straddles now). The loads' keys expire tomorrow.
build_pg_partitioned() {
    {
        cat <<SQL
DROP TABLE IF EXISTS idempotency_keys;
CREATE TABLE idempotency_keys (
    scope_id text NOT NULL, operation text NOT NULL, key text NOT NULL, request_hash bytea,
    status text NOT NULL, response_code int, response_body jsonb, locked_at timestamptz,
    created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
    PRIMARY KEY (scope_id, operation, key, expires_at)) PARTITION BY RANGE (expires_at);
SQL
        for d in $(seq -20 9); do
            echo "CREATE TABLE ik_d$((d + 20)) PARTITION OF idempotency_keys FOR VALUES FROM (date_trunc('day', now()) + interval '$d days') TO (date_trunc('day', now()) + interval '$((d + 1)) days');"
        done
        cat <<SQL
INSERT INTO idempotency_keys
SELECT 'cust_' || (g % 5000), 'POST /v1/orders', 'k-' || g, decode(md5(g::text), 'hex'), 'succeeded', 201,
       '{"status":"created"}', now() - interval '3 days', now() - interval '3 days',
       date_trunc('day', now()) - interval '20 days' + (g % 30) * interval '1 day' + (g % 86000) * interval '1 second'
FROM generate_series(1, $N) g;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
VACUUM ANALYZE idempotency_keys;
CHECKPOINT;
SQL
    } | psql "$1" -q -v ON_ERROR_STOP=1
}

bench_partitions_pg() {
    local expired
    build_pg_partitioned "$PG_URL"
    expired=$(psql "$PG_URL" -At -c "SELECT count(*) FROM idempotency_keys WHERE expires_at < now()")
    measure "$PG_URL" pg-part-delete psql "$PG_URL" -q -c "DELETE FROM idempotency_keys WHERE expires_at < now()"
    build_pg_partitioned "$PG_URL"
    measure "$PG_URL" pg-part-idemctl "$BIN" expire --database-url "$PG_URL" "${EXTRA[@]}" --format json --quiet
    build_pg_partitioned "$PG_URL"
    measure "$PG_URL" pg-part-drop "$BIN" expire --database-url "$PG_URL" --drop-partitions "${EXTRA[@]}" --format json --quiet
    printf 'pg, 30 daily partitions, 20 wholly past: N=%s expired=%s\n' "$N" "$expired"
    side pg-part-delete "$expired" "single DELETE"
    side pg-part-idemctl "$expired" "expire"
    side pg-part-drop "$expired" "expire --drop-partitions"
    printf '  expire: %s batches, slowest %s ms, deleted %s; --drop-partitions: dropped %s rows, deleted %s, slowest batch %s ms\n' \
        "$(json_field pg-part-idemctl batches)" "$(json_field pg-part-idemctl slowest_batch_ms)" \
        "$(json_field pg-part-idemctl rows_deleted)" "$(json_field pg-part-drop rows_dropped)" \
        "$(json_field pg-part-drop rows_deleted)" "$(json_field pg-part-drop slowest_batch_ms)"
}

bench_mysql() {
    local expired=$((N * 6 / 10))
    if [ "$SIDES" = both ]; then
        build_mysql "$MYSQL_URL" >/dev/null
        measure "$MYSQL_URL" mysql-delete mysql_at "$MYSQL_URL" -e "DELETE FROM idempotency_keys WHERE expires_at < NOW(6)"
    fi
    build_mysql "$MYSQL_URL" >/dev/null
    measure "$MYSQL_URL" mysql-idemctl "$BIN" expire --database-url "$MYSQL_URL" "${EXTRA[@]}" --format json --quiet
    report mysql "$expired" 3
}

# --- private primary and replica -------------------------------------------

PG_BIN=/usr/lib/postgresql/15/bin
spare_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# sample_lag COMMAND...: prints "unix-time lag-seconds" every 200 ms until killed.
sample_lag() {
    while true; do
        echo "$(now) $("$@" 2>/dev/null || echo NA)"
        sleep 0.2
    done
}

lag_line() { # TAG LABEL: the replica's lag over the side's window and until it caught up
    local tag=$1 label=$2 start end
    read -r start end _ <"$OUT/$tag.window"
    awk -v a="$start" -v b="$end" -v label="$label" '
        $2 == "NA" {next}
        $1 >= a && $1 <= b {n++; if ($2 > max) max = $2; v[n] = $2}
        $1 > b && $2 > 0.5 {after = $1 - b}
        END {asort(v); i = int(n * 0.99) + 1; if (i > n) i = n; p = (n > 0) ? v[i] : 0
             printf "  %-13s replica lag during the run: max %.2f s, p99 %.2f s; behind for %.1f s after it\n", label, max, p, after}' \
        "$OUT/$tag.lag"
}

with_lag_sampler() { # TAG COMMAND...: runs COMMAND with the lag sampler writing TAG.lag
    local tag=$1
    shift
    sample_lag "${LAG_CMD[@]}" >"$OUT/$tag.lag" &
    local sampler=$!
    "$@"
    # The sampler goes on until the replica has caught up (or 120 s).
    local until=$((SECONDS + 120))
    sleep 1
    while [ $SECONDS -lt $until ] && awk 'END {exit !($2 == "NA" || $2 > 0.5)}' "$OUT/$tag.lag"; do sleep 0.5; done
    kill "$sampler"
    wait "$sampler" 2>/dev/null || true
}

bench_replica_pg() {
    local base p1 p2 expired=$((N * 6 / 10))
    base=$(mktemp -d /tmp/idemctl-bench-pg.XXXXXX)
    chown postgres:postgres "$base"
    p1=$(spare_port)
    p2=$(spare_port)
    local opts="-c listen_addresses=127.0.0.1 -c unix_socket_directories=$base -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on -c ssl=off -c shared_buffers=256MB -c max_wal_size=4GB"
    trap "runuser -u postgres -- $PG_BIN/pg_ctl -D $base/standby stop -m immediate >/dev/null 2>&1; runuser -u postgres -- $PG_BIN/pg_ctl -D $base/primary stop -m immediate >/dev/null 2>&1; rm -rf $base" EXIT
    runuser -u postgres -- "$PG_BIN/initdb" -D "$base/primary" --auth=trust -U postgres -E UTF8 >/dev/null
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$base/primary" -l "$base/primary.log" -w -o "-p $p1 $opts" start >/dev/null
    runuser -u postgres -- "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$p1" -U postgres -D "$base/standby" -R -X stream >/dev/null
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$base/standby" -l "$base/standby.log" -w -o "-p $p2 $opts" start >/dev/null
    local primary="postgres://postgres@127.0.0.1:$p1/postgres" standby="postgres://postgres@127.0.0.1:$p2/postgres"
    LAG_CMD=(psql "$standby" -XAtq -c "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END")
    build_pg "$primary"
    with_lag_sampler pg-replica-delete measure "$primary" pg-replica-delete psql "$primary" -q -c "DELETE FROM idempotency_keys WHERE expires_at < now()"
    build_pg "$primary"
    with_lag_sampler pg-replica-idemctl measure "$primary" pg-replica-idemctl "$BIN" expire --database-url "$primary" \
        --replica-url "$standby" --max-lag 1s "${EXTRA[@]}" --format json --quiet
    report pg-replica "$expired" 2
    lag_line pg-replica-delete "single DELETE"
    lag_line pg-replica-idemctl "idemctl"
}

start_mariadbd() { # DIR PORT ID: a private server with binary logging
    local dir=$1 port=$2 id=$3
    # A tmpdir of its own: a starting mariadbd (the install's too) deletes the
    # `#sql*` files in its tmpdir, in /tmp the shared server's live temporary tables.
    mkdir -p "$dir/tmp"
    mariadb-install-db --no-defaults --datadir="$dir/data" --tmpdir="$dir/tmp" \
        --auth-root-authentication-method=normal --skip-test-db --user=root >/dev/null
    /usr/sbin/mariadbd --no-defaults --datadir="$dir/data" --tmpdir="$dir/tmp" --port="$port" --bind-address=127.0.0.1 \
        --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" --log-error="$dir/error.log" --user=root \
        --skip-name-resolve --innodb-buffer-pool-size=1G --server-id="$id" --log-bin="$dir/binlog" \
        --binlog-format=ROW --log-slave-updates >/dev/null 2>&1 &
    disown
    local tries=0
    until mariadb -h 127.0.0.1 -P "$port" -u root -e "SELECT 1" >/dev/null 2>&1; do
        tries=$((tries + 1))
        [ $tries -lt 300 ] || { cat "$dir/error.log" >&2; exit 1; }
        sleep 0.2
    done
}

bench_replica_mysql() {
    local base p1 p2 expired=$((N * 6 / 10))
    base=$(mktemp -d /tmp/idemctl-bench-maria.XXXXXX)
    p1=$(spare_port)
    p2=$(spare_port)
    trap "kill -9 \$(cat $base/primary/mysqld.pid $base/replica/mysqld.pid 2>/dev/null) 2>/dev/null; rm -rf $base" EXIT
    mkdir -p "$base/primary" "$base/replica"
    start_mariadbd "$base/primary" "$p1" 1
    start_mariadbd "$base/replica" "$p2" 2
    local primary="mysql://root@127.0.0.1:$p1/test" replica="mysql://root@127.0.0.1:$p2/test"
    mariadb -h 127.0.0.1 -P "$p1" -u root -e "CREATE DATABASE test"
    mariadb -h 127.0.0.1 -P "$p2" -u root -e "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$p1, MASTER_USER='root', MASTER_USE_GTID=slave_pos; START SLAVE"
    LAG_CMD=(sh -c "mariadb -h 127.0.0.1 -P $p2 -u root -e 'SHOW SLAVE STATUS\\G' | awk '/Seconds_Behind_Master/ {print (\$2 == \"NULL\") ? \"NA\" : \$2}'")
    local wait_replica='until [ "$(mariadb -h 127.0.0.1 -P '$p2' -u root -N -e "SELECT COUNT(*) FROM test.idempotency_keys" 2>/dev/null)" = "$(mariadb -h 127.0.0.1 -P '$p1' -u root -N -e "SELECT COUNT(*) FROM test.idempotency_keys")" ]; do sleep 1; done'
    build_mysql "$primary" >/dev/null
    bash -c "$wait_replica"
    with_lag_sampler mysql-replica-delete measure "$primary" mysql-replica-delete mysql_at "$primary" -e "DELETE FROM idempotency_keys WHERE expires_at < NOW(6)"
    build_mysql "$primary" >/dev/null
    bash -c "$wait_replica"
    with_lag_sampler mysql-replica-idemctl measure "$primary" mysql-replica-idemctl "$BIN" expire --database-url "$primary" \
        --replica-url "$replica" --max-lag 1s "${EXTRA[@]}" --format json --quiet
    report mysql-replica "$expired" 3
    lag_line mysql-replica-delete "single DELETE"
    lag_line mysql-replica-idemctl "idemctl"
}

for engine in "${ENGINES[@]}"; do
    if [ "$engine" = partitions-pg ]; then
        bench_partitions_pg
        continue
    fi
    case $engine in
        pg | postgres) bench_pg ;;
        mysql | mariadb) bench_mysql ;;
        replica-pg) bench_replica_pg ;;
        replica-mysql) bench_replica_mysql ;;
        *) echo "unknown engine $engine: pg, mysql, replica-pg or replica-mysql" >&2; exit 2 ;;
    esac
done
