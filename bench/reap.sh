#!/usr/bin/env bash
# Benchmark: idemctl reap against the hand-written UPDATE, on a key table of
# the reference shape holding K stuck keys (default 10,000) among N finished
# ones (default 90,000), on PostgreSQL, MariaDB and SQLite. Each run starts
# from the same table. Targets: idemctl under 5 s per engine, its slowest
# batch (one transaction, the keys' row locks held) under 250 ms.
#
#   bench/reap.sh                     # all three engines
#   K=50000 bench/reap.sh pg          # more stuck keys
#   BATCH=500 bench/reap.sh mysql     # another batch size
set -euo pipefail
cd "$(dirname "$0")/.."

K=${K:-10000}
N=${N:-90000}
BATCH=${BATCH:-100}
ENGINES=("$@")
[ ${#ENGINES[@]} -gt 0 ] || ENGINES=(pg mysql sqlite)
PG_URL=${PG_URL:-postgres://root@127.0.0.1:5432/test}
MYSQL_URL=${MYSQL_URL:-mysql://root@127.0.0.1:3306/test}
OUT=bench/out
mkdir -p "$OUT"
SQLITE_DB="$OUT/reap-bench.db"

cargo build --release --quiet --bin idemctl
BIN=${BIN:-target/release/idemctl}

now() { date +%s.%N; }

# The key table: K keys in progress, locked 10 to 60 minutes ago, and N
# succeeded; the reference schema's columns and primary key.
build() {
    case $1 in
    pg)
        psql -q "$PG_URL" <<SQL
DROP TABLE IF EXISTS idempotency_keys;
CREATE TABLE idempotency_keys (scope_id text NOT NULL, operation text NOT NULL, key text NOT NULL,
    request_hash bytea, status text NOT NULL, response_code int, response_body jsonb,
    locked_at timestamptz, created_at timestamptz NOT NULL, expires_at timestamptz NOT NULL,
    PRIMARY KEY (scope_id, operation, key));
INSERT INTO idempotency_keys (scope_id, operation, key, status, locked_at, created_at, expires_at)
SELECT 's' || (n % 1000), 'POST /v1/orders', 'k' || n,
       CASE WHEN n <= $K THEN 'in_progress' ELSE 'succeeded' END,
       now() - (600 + n % 3000) * interval '1 second', now() - interval '1 hour', now() + interval '1 day'
FROM generate_series(1, $K + $N) AS n;
ANALYZE idempotency_keys;
SQL
        ;;
    mysql)
        mariadb -h 127.0.0.1 -u root test <<SQL
DROP TABLE IF EXISTS idempotency_keys;
CREATE TABLE idempotency_keys (scope_id VARCHAR(100) NOT NULL, operation VARCHAR(100) NOT NULL,
    \`key\` VARCHAR(100) NOT NULL, request_hash VARBINARY(64), status VARCHAR(32) NOT NULL, response_code INT,
    response_body TEXT, locked_at DATETIME(6) NULL, created_at DATETIME(6) NOT NULL,
    expires_at DATETIME(6) NOT NULL, PRIMARY KEY (scope_id, operation, \`key\`));
INSERT INTO idempotency_keys (scope_id, operation, \`key\`, status, locked_at, created_at, expires_at)
SELECT CONCAT('s', seq % 1000), 'POST /v1/orders', CONCAT('k', seq),
       IF(seq <= $K, 'in_progress', 'succeeded'),
       UTC_TIMESTAMP(6) - INTERVAL (600 + seq % 3000) SECOND, UTC_TIMESTAMP(6) - INTERVAL 1 HOUR,
       UTC_TIMESTAMP(6) + INTERVAL 1 DAY
FROM seq_1_to_$((K + N));
ANALYZE TABLE idempotency_keys;
SQL
        ;;
    sqlite)
        rm -f "$SQLITE_DB"
        python3 - "$SQLITE_DB" "$K" "$N" <<'PY'
import sqlite3, sys, datetime
path, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(path)
db.execute("""CREATE TABLE idempotency_keys (scope_id TEXT NOT NULL, operation TEXT NOT NULL, key TEXT NOT NULL,
    request_hash BLOB, status TEXT NOT NULL, response_code INTEGER, response_body TEXT, locked_at TEXT,
    created_at TEXT NOT NULL, expires_at TEXT NOT NULL, PRIMARY KEY (scope_id, operation, key))""")
now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
fmt = lambda t: t.strftime("%Y-%m-%d %H:%M:%S.%f")
rows = ((f"s{i % 1000}", "POST /v1/orders", f"k{i}", "in_progress" if i <= k else "succeeded",
         fmt(now - datetime.timedelta(seconds=600 + i % 3000)), fmt(now - datetime.timedelta(hours=1)),
         fmt(now + datetime.timedelta(days=1))) for i in range(1, k + n + 1))
db.executemany("INSERT INTO idempotency_keys (scope_id, operation, key, status, locked_at, created_at, expires_at) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
db.commit()
PY
        ;;
    esac
}

url() {
    case $1 in
    pg) echo "$PG_URL" ;;
    mysql) echo "$MYSQL_URL" ;;
    sqlite) echo "sqlite:$SQLITE_DB" ;;
    esac
}

# sqlite_sql SQL: runs SQL on the benchmark's SQLite file, printing one value if it returns one.
sqlite_sql() {
    python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
row = db.execute(sys.argv[2]).fetchone()
db.commit()
if row: print(row[0])' "$SQLITE_DB" "$1"
}

# The UPDATE one would write by hand: every stuck key in one statement.
by_hand() {
    case $1 in
    pg) psql -q "$PG_URL" -c "UPDATE idempotency_keys SET status = 'failed_retryable'
            WHERE status = 'in_progress' AND locked_at < now() - interval '5 minutes'" ;;
    mysql) mariadb -h 127.0.0.1 -u root test -e "UPDATE idempotency_keys SET status = 'failed_retryable'
            WHERE status = 'in_progress' AND locked_at < UTC_TIMESTAMP(6) - INTERVAL 5 MINUTE" ;;
    sqlite) sqlite_sql "UPDATE idempotency_keys SET status = 'failed_retryable'
            WHERE status = 'in_progress' AND julianday(locked_at) < julianday('now', '-5 minutes')" ;;
    esac
}

count_released() {
    case $1 in
    pg) psql -tAq "$PG_URL" -c "SELECT count(*) FROM idempotency_keys WHERE status = 'failed_retryable'" ;;
    mysql) mariadb -h 127.0.0.1 -u root test -N -e "SELECT count(*) FROM idempotency_keys WHERE status = 'failed_retryable'" ;;
    sqlite) sqlite_sql "SELECT count(*) FROM idempotency_keys WHERE status = 'failed_retryable'" ;;
    esac
}

for engine in "${ENGINES[@]}"; do
    build "$engine"
    start=$(now)
    by_hand "$engine"
    hand=$(echo "$(now) - $start" | bc)
    hand_count=$(count_released "$engine")
    build "$engine"
    start=$(now)
    "$BIN" reap --database-url "$(url "$engine")" --max-duration 5m --batch-size "$BATCH" --format json \
        >"$OUT/reap-$engine.json"
    idem=$(echo "$(now) - $start" | bc)
    idem_count=$(count_released "$engine")
    slowest=$(grep -o '"slowest_batch_ms":[0-9.]*' "$OUT/reap-$engine.json" | cut -d: -f2)
    batches=$(grep -o '"batches":[0-9]*' "$OUT/reap-$engine.json" | cut -d: -f2)
    if [ "$hand_count" != "$K" ] || [ "$idem_count" != "$K" ]; then
        echo "$engine: released $idem_count keys (by hand $hand_count), expected $K" >&2
        exit 1
    fi
    printf '%-6s K=%s N=%s batch=%s: idemctl %6.2f s (%s batches, slowest %.1f ms; targets < 5 s, < 250 ms)   by hand %6.2f s   ratio %.1fx\n' \
        "$engine" "$K" "$N" "$BATCH" "$idem" "$batches" "$slowest" "$hand" "$(echo "$idem / $hand" | bc -l)"
done
