#!/usr/bin/env bash
# Benchmark: one scan across a fleet of PostgreSQL databases against the sum
# of one scan per database, run one after the other.
#
#   bench/fleet.sh                       # 16 databases of 500,000 orders
#   DBS=32 N=100000 bench/fleet.sh       # another fleet
#   REUSE=1 bench/fleet.sh               # keep the databases of an earlier run
#   PREFIX=small DBS=100 N=1000 bench/fleet.sh   # databases named small_0 ...
#
# Each database holds N orders, one intent in a hundred retried 1.5 s after
# its first attempt (N/100 extra rows). The script scans them all with
# --parallel 1, 2, 4 and 8 and prints each time, its ratio to the sum of the
# single runs, and the peak RSS of the one process that scans the fleet;
# every run must find the same clusters as the single runs, or it fails.
# PG_URL names the server (its database is where the fleet's are created);
# DROP=1 drops the fleet's databases at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

DBS=${DBS:-16}
PREFIX=${PREFIX:-idemctl_fleet}
N=${N:-500000}
PG_URL=${PG_URL:-postgres://root@127.0.0.1:5432/test}
OUT=bench/out/fleet
mkdir -p "$OUT"

cargo build --release --quiet
BIN=${BIN:-target/release/idemctl}
base=${PG_URL%/*}
psql_at() { psql "$base/$1" -q -v ON_ERROR_STOP=1 "${@:2}"; }
now() { date +%s.%N; }
# CPU time of the whole machine (idemctl and the server's backends), in seconds.
busy() { awk -v hz="$(getconf CLK_TCK)" '/^cpu /{printf "%.2f\n", ($2+$3+$4+$7+$8)/hz}' /proc/stat; }
CORES=$(nproc)

# The first database is built; the others are copies of it (CREATE DATABASE ... TEMPLATE).
build() {
    local first=${PREFIX}_0
    if [ "${REUSE:-0}" = 1 ] &&
        [ "$(psql_at "$first" -At -c "SELECT count(*) FROM orders" 2>/dev/null)" = "$N" ] &&
        psql_at "${PREFIX}_$((DBS - 1))" -At -c "SELECT 1" >/dev/null 2>&1; then
        echo "reusing $DBS databases of $N orders" >&2
        return
    fi
    echo "building $DBS databases of $N orders each" >&2
    for i in $(seq 0 $((DBS - 1))); do
        psql "$PG_URL" -q -c "DROP DATABASE IF EXISTS ${PREFIX}_$i"
    done
    psql "$PG_URL" -q -c "CREATE DATABASE $first"
    psql_at "$first" <<SQL
CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id int NOT NULL,
    amount numeric(10,2) NOT NULL,
    currency text NOT NULL,
    sku text NOT NULL,
    quantity int NOT NULL,
    status text,
    created_at timestamptz NOT NULL
);
INSERT INTO orders
SELECT g, (i * 7919) % 50000, ((i * 31) % 10000) / 100.0, (ARRAY['EUR','USD','GBP'])[1 + i % 3],
       'sku-' || (i * 13) % 500, 1 + i % 5, CASE WHEN i % 7 = 0 THEN NULL ELSE 'new' END,
       timestamptz '2026-01-01 00:00:00Z' + (i * 250) * interval '1 millisecond'
         + CASE WHEN g % 100 = 0 THEN interval '1.5 seconds' ELSE interval '0' END
FROM (SELECT g, CASE WHEN g % 100 = 0 THEN g - 1 ELSE g END AS i FROM generate_series(1::bigint, $N) g) s;
CREATE INDEX orders_created_at ON orders (created_at);
VACUUM ANALYZE orders;
SQL
    for i in $(seq 1 $((DBS - 1))); do
        psql "$PG_URL" -q -c "CREATE DATABASE ${PREFIX}_$i TEMPLATE $first"
        psql_at "${PREFIX}_$i" -c "VACUUM ANALYZE orders"
    done
}
build

LIST=$OUT/$PREFIX.txt
: >"$LIST"
for i in $(seq 0 $((DBS - 1))); do echo "$base/${PREFIX}_$i" >>"$LIST"; done
# Warm the cache: every table read once before anything is timed.
"$BIN" scan --databases "$LIST" --table orders --format csv --quiet >/dev/null || [ $? -eq 1 ]

# The single runs, one after the other: their times summed, their clusters kept.
: >"$OUT/single.ids"
single_sum=0
single_rss=0
single_busy=$(busy)
for i in $(seq 0 $((DBS - 1))); do
    start=$(now)
    /usr/bin/time -f "%M" -o "$OUT/single.rss" \
        "$BIN" scan --database-url "$base/${PREFIX}_$i" --table orders --format csv --quiet \
        >"$OUT/single.csv" || [ $? -eq 1 ]
    single_sum=$(echo "$single_sum + $(now) - $start" | bc)
    rss=$(tail -n1 "$OUT/single.rss")
    [ "$rss" -gt "$single_rss" ] && single_rss=$rss
    # cluster,original_id,extra_ids,...: the database, then the original and extra ids.
    tail -n +2 "$OUT/single.csv" | cut -d, -f2,3 | sed "s|^|127.0.0.1/${PREFIX}_$i,|" >>"$OUT/single.ids"
done
single_busy=$(echo "$(busy) - $single_busy" | bc)
sort -o "$OUT/single.ids" "$OUT/single.ids"
clusters=$(wc -l <"$OUT/single.ids")
printf 'fleet of %d PostgreSQL databases x %d orders, %d clusters in all\n' "$DBS" "$N" "$clusters"
printf '%-14s %8.2fs  (%d processes one after the other; peak RSS of one: %d MB)  CPU %.2fs: %.2f of %d cores busy\n' \
    "single runs" "$single_sum" "$DBS" "$((single_rss / 1024))" "$single_busy" \
    "$(echo "$single_busy / $single_sum" | bc -l)" "$CORES"
# The work is the same however it is spread: with every core busy, the run
# takes at least the single runs' CPU time over the cores.
printf '%-14s %8.2fs  ratio %.2f  (the single runs'"'"' CPU time over %d cores: no run on this machine is faster)\n' \
    "floor" "$(echo "$single_busy / $CORES" | bc -l)" "$(echo "$single_busy / $CORES / $single_sum" | bc -l)" "$CORES"

for p in ${PARALLEL:-1 2 4 8}; do
    start=$(now)
    cpu=$(busy)
    /usr/bin/time -f "%M" -o "$OUT/fleet.rss" \
        "$BIN" scan --databases "$LIST" --parallel "$p" --table orders --format csv --quiet \
        >"$OUT/fleet.csv" || [ $? -eq 1 ]
    took=$(echo "$(now) - $start" | bc)
    cpu=$(echo "$(busy) - $cpu" | bc)
    rss=$(tail -n1 "$OUT/fleet.rss")
    # database,cluster,original_id,extra_ids,...
    tail -n +2 "$OUT/fleet.csv" | cut -d, -f1,3,4 | sort >"$OUT/fleet.ids"
    if ! cmp -s "$OUT/fleet.ids" "$OUT/single.ids"; then
        echo "--parallel $p: MISMATCH: the fleet found $(wc -l <"$OUT/fleet.ids") clusters, the single runs $clusters" >&2
        exit 1
    fi
    printf -- '--parallel %-3s %8.2fs  ratio to the single runs %.2f  peak RSS %d MB  CPU %.2fs: %.2f of %d cores busy\n' \
        "$p" "$took" "$(echo "$took / $single_sum" | bc -l)" "$((rss / 1024))" "$cpu" \
        "$(echo "$cpu / $took" | bc -l)" "$CORES"
done

if [ "${DROP:-0}" = 1 ]; then
    for i in $(seq 0 $((DBS - 1))); do psql "$PG_URL" -q -c "DROP DATABASE IF EXISTS ${PREFIX}_$i"; done
fi
