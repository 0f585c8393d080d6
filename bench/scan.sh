#!/usr/bin/env bash
# Benchmark: idemctl scan against the hand-written gaps-and-islands SQL, on the
# same orders-like table with injected retries, in PostgreSQL, MariaDB and SQLite.
#
#   bench/scan.sh                 # N=1000000 on every engine
#   N=10000000 bench/scan.sh pg   # the full run on PostgreSQL
#   N=2000000 bench/scan.sh mysql sqlite
#
# Both sides must find the same extra rows; the script fails otherwise. It
# prints each side's time, the ratio, and idemctl's peak RSS.
# PG_URL, MYSQL_URL and SQLITE_DIR say where to build the tables; REUSE=1
# keeps a table of the same N from an earlier run.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-1000000}
ENGINES=("$@")
[ ${#ENGINES[@]} -gt 0 ] || ENGINES=(pg mysql sqlite)
PG_URL=${PG_URL:-postgres://root@127.0.0.1:5432/test}
MYSQL_URL=${MYSQL_URL:-mysql://root@127.0.0.1:3306/test}
SQLITE_DIR=${SQLITE_DIR:-bench/out}
OUT=bench/out
mkdir -p "$OUT" "$SQLITE_DIR"

cargo build --release --quiet
BIN=${BIN:-target/release/idemctl}

# One intent in 100 is retried 1.5 s after its first attempt: N/100 extra rows.
# Rows are 0.25 s apart; the compared values come from the intent number, so
# different intents never collide within the window.
COMPARED="customer_id, amount, currency, sku, quantity, status"

now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }

# run_idemctl URL: times the scan, records peak RSS, writes sorted duplicate ids.
run_idemctl() {
    local url=$1 tag=$2 start
    start=$(now)
    /usr/bin/time -f "%M" -o "$OUT/$tag.rss" \
        "$BIN" scan --database-url "$url" --table bench_orders --output rows --format csv --quiet \
        >"$OUT/$tag.idemctl.csv" || [ $? -eq 1 ]
    IDEM_TIME=$(elapsed "$start")
    IDEM_RSS_KB=$(tail -n1 "$OUT/$tag.rss")
    tail -n +2 "$OUT/$tag.idemctl.csv" | cut -d, -f3 | sort -n >"$OUT/$tag.idemctl.ids"
}

report() {
    local tag=$1 sql_time=$2
    if ! cmp -s "$OUT/$tag.idemctl.ids" "$OUT/$tag.sql.ids"; then
        echo "$tag: MISMATCH: idemctl found $(wc -l <"$OUT/$tag.idemctl.ids") extra rows, the SQL $(wc -l <"$OUT/$tag.sql.ids")" >&2
        exit 1
    fi
    printf '%-7s N=%-9s extra rows %-8s idemctl %7.2fs  SQL %7.2fs  ratio %.3f  idemctl peak RSS %d MB\n' \
        "$tag" "$N" "$(wc -l <"$OUT/$tag.sql.ids")" "$IDEM_TIME" "$sql_time" \
        "$(echo "$IDEM_TIME / $sql_time" | bc -l)" "$((IDEM_RSS_KB / 1024))"
}

# have ENGINE COUNT_COMMAND...: true when REUSE=1 and the table holds N rows.
have() {
    [ "${REUSE:-0}" = 1 ] || return 1
    local n
    n=$("$@" 2>/dev/null | tail -n1) || return 1
    [ "$n" = "$N" ] && echo "reusing the $N-row table" >&2
}

bench_pg() {
    local psql=(psql "$PG_URL" -q -v ON_ERROR_STOP=1)
    have "${psql[@]}" -At -c "SELECT count(*) FROM bench_orders" || "${psql[@]}" <<SQL
DROP TABLE IF EXISTS bench_orders;
CREATE UNLOGGED TABLE bench_orders (
    id bigint PRIMARY KEY,
    customer_id int NOT NULL,
    amount numeric(10,2) NOT NULL,
    currency text NOT NULL,
    sku text NOT NULL,
    quantity int NOT NULL,
    status text,
    idempotency_key text,
    created_at timestamptz NOT NULL
);
INSERT INTO bench_orders
SELECT g, (i * 7919) % 50000, ((i * 31) % 10000) / 100.0, (ARRAY['EUR','USD','GBP'])[1 + i % 3],
       'sku-' || (i * 13) % 500, 1 + i % 5, CASE WHEN i % 7 = 0 THEN NULL ELSE 'new' END,
       CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN 'k-' || i ELSE 'k-' || g END,
       timestamptz '2026-01-01 00:00:00Z' + (i * 250) * interval '1 millisecond'
         + CASE WHEN g % 100 = 0 THEN interval '1.5 seconds' ELSE interval '0' END
FROM (SELECT g, CASE WHEN g % 100 = 0 THEN g - 1 ELSE g END AS i FROM generate_series(1::bigint, $N) g) s;
CREATE INDEX bench_orders_created_at ON bench_orders (created_at);
VACUUM ANALYZE bench_orders;
SQL
    run_idemctl "$PG_URL" pg
    local start
    start=$(now)
    "${psql[@]}" -At >"$OUT/pg.sql.raw" <<SQL
SELECT id FROM (
  SELECT id, created_at - lag(created_at) OVER (PARTITION BY $COMPARED ORDER BY created_at, id) AS gap
  FROM bench_orders
) s WHERE gap <= interval '5 seconds';
SQL
    local sql_time
    sql_time=$(elapsed "$start")
    sort -n "$OUT/pg.sql.raw" >"$OUT/pg.sql.ids"
    report pg "$sql_time"
}

bench_mysql() {
    local db=${MYSQL_URL##*/}
    local rest=${MYSQL_URL#*://}
    local host=${rest%%/*}; host=${host#*@}
    local my=(mariadb -h "${host%:*}" -P "${host##*:}" -u root "$db")
    have "${my[@]}" -N -B -e "SELECT count(*) FROM bench_orders" || "${my[@]}" <<SQL
DROP TABLE IF EXISTS bench_orders;
CREATE TABLE bench_orders (
    id bigint PRIMARY KEY,
    customer_id int NOT NULL,
    amount decimal(10,2) NOT NULL,
    currency varchar(3) NOT NULL,
    sku varchar(16) NOT NULL,
    quantity int NOT NULL,
    status varchar(16),
    idempotency_key varchar(64),
    created_at datetime(6) NOT NULL,
    KEY bench_orders_created_at (created_at)
);
SET time_zone = '+00:00';
INSERT INTO bench_orders
SELECT g, (i * 7919) % 50000, ((i * 31) % 10000) / 100.0, ELT(1 + i % 3, 'EUR', 'USD', 'GBP'),
       CONCAT('sku-', (i * 13) % 500), 1 + i % 5, IF(i % 7 = 0, NULL, 'new'),
       CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN CONCAT('k-', i) ELSE CONCAT('k-', g) END,
       TIMESTAMPADD(MICROSECOND, i * 250000 + IF(g % 100 = 0, 1500000, 0), '2026-01-01 00:00:00')
FROM (SELECT seq AS g, IF(seq % 100 = 0, seq - 1, seq) AS i FROM seq_1_to_$N) s;
ANALYZE TABLE bench_orders;
SQL
    run_idemctl "$MYSQL_URL" mysql
    local start
    start=$(now)
    "${my[@]}" -N -B >"$OUT/mysql.sql.raw" <<SQL
SELECT id FROM (
  SELECT id, TIMESTAMPDIFF(MICROSECOND, LAG(created_at) OVER (PARTITION BY $COMPARED ORDER BY created_at, id), created_at) AS gap
  FROM bench_orders
) s WHERE gap <= 5000000;
SQL
    local sql_time
    sql_time=$(elapsed "$start")
    sort -n "$OUT/mysql.sql.raw" >"$OUT/mysql.sql.ids"
    report mysql "$sql_time"
}

bench_sqlite() {
    local file="$SQLITE_DIR/bench.db"
    have sqlite3 "$file" "SELECT count(*) FROM bench_orders" || { rm -f "$file"; sqlite3 "$file"; } <<SQL
CREATE TABLE bench_orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL,
    amount NUMERIC NOT NULL,
    currency TEXT NOT NULL,
    sku TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    status TEXT,
    idempotency_key TEXT,
    created_at TEXT NOT NULL
);
WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < $N),
     t(g, i) AS (SELECT g, CASE WHEN g % 100 = 0 THEN g - 1 ELSE g END FROM s)
INSERT INTO bench_orders
SELECT g, (i * 7919) % 50000, ((i * 31) % 10000) / 100.0, CASE i % 3 WHEN 0 THEN 'EUR' WHEN 1 THEN 'USD' ELSE 'GBP' END,
       'sku-' || (i * 13) % 500, 1 + i % 5, CASE WHEN i % 7 = 0 THEN NULL ELSE 'new' END,
       CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN 'k-' || i ELSE 'k-' || g END,
       strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + i * 0.25 + CASE WHEN g % 100 = 0 THEN 1.5 ELSE 0 END, 'unixepoch')
FROM t;
CREATE INDEX bench_orders_created_at ON bench_orders (created_at);
ANALYZE;
SQL
    run_idemctl "sqlite:$file" sqlite
    local start
    start=$(now)
    sqlite3 "$file" >"$OUT/sqlite.sql.raw" <<SQL
SELECT id FROM (
  SELECT id, (julianday(created_at) - julianday(lag(created_at) OVER (PARTITION BY $COMPARED ORDER BY created_at, id))) * 86400.0 AS gap
  FROM bench_orders
) s WHERE gap <= 5.0005;
SQL
    local sql_time
    sql_time=$(elapsed "$start")
    sort -n "$OUT/sqlite.sql.raw" >"$OUT/sqlite.sql.ids"
    report sqlite "$sql_time"
}

for engine in "${ENGINES[@]}"; do
    case $engine in
        pg | postgres) bench_pg ;;
        mysql | mariadb) bench_mysql ;;
        sqlite) bench_sqlite ;;
        *) echo "unknown engine $engine: pg, mysql or sqlite" >&2; exit 2 ;;
    esac
done
