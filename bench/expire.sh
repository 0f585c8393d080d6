#!/usr/bin/env bash
# Benchmark: idemctl expire against one unbatched DELETE on the same key
# table of N rows (default 1,000,000; 5,000,000 for the full run), 60%
# expired, in PostgreSQL and MariaDB, with a concurrent insert load whose
# latency is measured at rest, during the DELETE and during idemctl.
#
#   bench/expire.sh                  # both engines, N=1000000
#   N=5000000 bench/expire.sh pg
#   BATCH=5000 bench/expire.sh mysql  # another batch size
#   SLEEP=2ms bench/expire.sh pg       # a pause between batches
#   TAIL=40 bench/expire.sh mysql      # the load runs 40 s on after each run,
#                                      # measured apart: the work a run leaves
#                                      # behind (InnoDB's purge of its rows)
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-1000000}
BATCH=${BATCH:-5000}
SLEEP=${SLEEP:-}
TAIL=${TAIL:-0}
PACE=()
[ -z "$SLEEP" ] || PACE=(--sleep "$SLEEP")
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

# with_load URL TAG COMMAND...: runs COMMAND under the insert load; the
# load's figures go to $OUT/TAG.load (each insert in $OUT/TAG.trace), the
# command's time to $OUT/TAG.time, the time it returned to $OUT/TAG.end.
with_load() {
    local url=$1 tag=$2 start end
    shift 2
    INSERT_TRACE="$OUT/$tag.trace" "$LOAD" "$url" 600 >"$OUT/$tag.load" &
    local load=$!
    sleep 1
    start=$(now)
    "$@" >"$OUT/$tag.out"
    end=$(now)
    echo "$end - $start" | bc >"$OUT/$tag.time"
    echo "$end" >"$OUT/$tag.end"
    sleep $((TAIL > 1 ? TAIL : 1))
    kill -TERM "$load"
    wait "$load" || true
}

# tail_p99 TAG: the p99 of the inserts that started after TAG's command returned.
tail_p99() {
    awk -v end="$(cat "$OUT/$1.end")" '$1 > end {print $2}' "$OUT/$1.trace" | sort -n |
        awk '{v[NR] = $1} END {i = int(NR * 0.99) + 1; if (i > NR) i = NR; print v[i]}'
}

p99() { awk '{for (i = 1; i < NF; i++) if ($i == "p99") print $(i + 1)}' "$1"; }

report() {
    local engine=$1 expired=$2
    local delete_s idem_s rest rest2 delete_p99 idem_p99 slowest
    delete_s=$(cat "$OUT/$engine-delete.time")
    idem_s=$(cat "$OUT/$engine-idemctl.time")
    rest=$(p99 "$OUT/$engine-rest.load")
    rest2=$(p99 "$OUT/$engine-rest2.load")
    delete_p99=$(p99 "$OUT/$engine-delete.load")
    idem_p99=$(p99 "$OUT/$engine-idemctl.load")
    slowest=$(grep -o '"slowest_batch_ms":[0-9.]*' "$OUT/$engine-idemctl.out" | cut -d: -f2)
    printf '%-6s N=%s expired=%s batch=%s sleep=%s\n' "$engine" "$N" "$expired" "$BATCH" "${SLEEP:-0}"
    printf '  single DELETE %8.2fs %10.0f rows/s   insert p99 %7.2f ms\n' "$delete_s" "$(echo "$expired / $delete_s" | bc -l)" "$delete_p99"
    printf '  idemctl       %8.2fs %10.0f rows/s   insert p99 %7.2f ms   slowest batch %.1f ms\n' \
        "$idem_s" "$(echo "$expired / $idem_s" | bc -l)" "$idem_p99" "$slowest"
    printf '  at rest                                   insert p99 %7.2f ms before the DELETE, %.2f ms before idemctl\n' \
        "$rest" "$rest2"
    printf '  idemctl rows/s vs DELETE: %.2fx (target >= 0.5); p99 during idemctl vs rest before it: %.2fx (target <= 3); DELETE: %.2fx\n' \
        "$(echo "$delete_s / $idem_s" | bc -l)" "$(echo "$idem_p99 / $rest2" | bc -l)" "$(echo "$delete_p99 / $rest" | bc -l)"
    if [ "$TAIL" -gt 0 ]; then
        printf '  in the %s s after each returned                insert p99 %7.2f ms after the DELETE, %.2f ms after idemctl\n' \
            "$TAIL" "$(tail_p99 "$engine-delete")" "$(tail_p99 "$engine-idemctl")"
    fi
}

build_pg() {
    psql "$PG_URL" -q -v ON_ERROR_STOP=1 <<SQL
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

bench_pg() {
    local expired=$((N * 6 / 10))
    build_pg
    with_load "$PG_URL" pg-rest sleep 20
    with_load "$PG_URL" pg-delete psql "$PG_URL" -q -c "DELETE FROM idempotency_keys WHERE expires_at < now()"
    build_pg
    with_load "$PG_URL" pg-rest2 sleep 20
    with_load "$PG_URL" pg-idemctl "$BIN" expire --database-url "$PG_URL" --batch-size "$BATCH" "${PACE[@]}" --format json --quiet
    report pg "$expired"
}

mysql_cli() {
    local rest=${MYSQL_URL#*://}
    local host=${rest%%/*}; host=${host#*@}
    mariadb -h "${host%:*}" -P "${host##*:}" -u root "${MYSQL_URL##*/}" "$@"
}

build_mysql() {
    mysql_cli <<SQL
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
    # Both runs start with the build's pages written out, as PostgreSQL's do
    # from a CHECKPOINT: InnoDB would otherwise flush them during the run.
    local pct
    pct=$(mysql_cli -N -e "SELECT @@GLOBAL.innodb_max_dirty_pages_pct")
    mysql_cli -e "SET GLOBAL innodb_max_dirty_pages_pct = 0"
    local age
    while age=$(mysql_cli -N -e "SHOW GLOBAL STATUS LIKE 'Innodb_checkpoint_age'" | cut -f2) &&
        [ -n "$age" ] && [ "$age" -ge 1000000 ]; do
        sleep 0.5
    done
    mysql_cli -e "SET GLOBAL innodb_max_dirty_pages_pct = $pct"
}

bench_mysql() {
    local expired=$((N * 6 / 10))
    build_mysql >/dev/null
    with_load "$MYSQL_URL" mysql-rest sleep 20
    with_load "$MYSQL_URL" mysql-delete mysql_cli -e "DELETE FROM idempotency_keys WHERE expires_at < NOW(6)"
    build_mysql >/dev/null
    with_load "$MYSQL_URL" mysql-rest2 sleep 20
    with_load "$MYSQL_URL" mysql-idemctl "$BIN" expire --database-url "$MYSQL_URL" --batch-size "$BATCH" "${PACE[@]}" --format json --quiet
    report mysql "$expired"
}

for engine in "${ENGINES[@]}"; do
    case $engine in
        pg | postgres) bench_pg ;;
        mysql | mariadb) bench_mysql ;;
        *) echo "unknown engine $engine: pg or mysql" >&2; exit 2 ;;
    esac
done
