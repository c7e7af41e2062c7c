#!/bin/bash
# db-vs-reference — storbench's database workloads against the real tools on
# one target, alternating so that drifts of the machine hit both alike:
#   sqlite:  the sqlite3 shell fed the same statements (one CREATE TABLE, then
#            COUNT autocommitted INSERTs 3 times) vs `storbench run sqlite`;
#   pgbench: the real pgbench (TPC-B-like, query mode PG_QUERY: simple, the
#            seed's default, i.e. no -M) against a cluster set up exactly as
#            storbench sets up its own (initdb SQL_ASCII/C, socket only,
#            autovacuum off, max_connections 100) vs `storbench run pgbench`
#            with the same query mode, both at a quick scale.
# Prints every figure, the means, the ratio storbench / reference and the
# geometric mean (min, max) of the per-round ratios (goal 0.9 .. 1.1); for
# pgbench Read Write also each tool's cost per transaction counted in the
# middle of its run (client and server CPU, WAL syncs and bytes), which a busy
# neighbour does not change. Run by hand, never from `make check`:
#   bench/db-vs-reference.sh [TARGET]     (default /var/tmp)
# Environment: STORBENCH (binary, default ./storbench), ROUNDS (3),
#   SQLITE_COUNT (2500), PG_SCALE (10), PG_DURATION (10), PG_TEST (normal),
#   PG_CLIENTS, PG_THREADS (default from PG_TEST), PG_QUERY (simple, extended or
#   prepared: pgbench -M), PG_MODE (rw, or ro: select only, pgbench -S),
#   PG_CPU_WINDOW (seconds counted, default PG_DURATION / 2),
#   ONLY (sqlite or pgbench: just that pair).
set -u
# (for lib_sqlite_sql, the statements storbench's own comparisons feed sqlite3)
. "$(dirname "$0")/lib.sh"
TARGET=${1:-/var/tmp}
SB=${STORBENCH:-./storbench}
ROUNDS=${ROUNDS:-3}
SQLITE_COUNT=${SQLITE_COUNT:-2500}
PG_SCALE=${PG_SCALE:-10}
PG_DURATION=${PG_DURATION:-10}
PG_TEST=${PG_TEST:-normal}
ONLY=${ONLY:-}
PG_MODE=${PG_MODE:-rw}
PG_QUERY=${PG_QUERY:-simple}
PG_S=""
[ "$PG_MODE" = ro ] && PG_S="-S"
NCPU=$(nproc)
case "$PG_TEST" in
    single) CLIENTS=1; THREADS=1 ;;
    heavy) CLIENTS=$((32 * NCPU)); THREADS=$((2 * NCPU)) ;;
    *) CLIENTS=$((4 * NCPU)); THREADS=$NCPU ;;
esac
CLIENTS=${PG_CLIENTS:-$CLIENTS}
THREADS=${PG_THREADS:-$THREADS}

die() { echo "db-vs-reference: $*" >&2; exit 1; }
[ -x "$SB" ] || die "no storbench binary at $SB (set STORBENCH)"
command -v sqlite3 >/dev/null || die "sqlite3 shell missing (apt-get install sqlite3)"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$PGBIN" ] && [ -x "$PGBIN/pgbench" ] || die "PostgreSQL missing (apt-get install postgresql)"

WORK=$(mktemp -d "$TARGET/db-vs-ref.XXXXXX") || die "cannot create a directory in $TARGET"
chmod 711 "$WORK"
PGPID=""
cleanup() {
    [ -n "$PGPID" ] && kill -INT "$PGPID" 2>/dev/null && wait "$PGPID" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# As root the reference server runs as postgres, as storbench's does.
# setpriv execs in place (no forking helper), so $! is the server itself
# (a shell function started with & would be a subshell in between).
AS_PG=()
[ "$(id -u)" = 0 ] && AS_PG=(setpriv --reuid=postgres --regid=postgres --clear-groups --)
now() { date +%s.%N; }
mean() { awk '{s += $1; n++} END {if (n) printf "%.2f", s / n}'; }

# ---- the statements, generated once (random digits as the profile's file) ----
SQL="$WORK/inserts.sql"
lib_sqlite_sql "$SQL" "$SQLITE_COUNT"

sqlite_ref() {
    # The database goes into a fresh directory of its own, as storbench's goes into its
    # fresh run directory: SQLite fsyncs the directory when it makes the journal, and a
    # directory shared with other files is not the same work for every file system.
    local dir db t0 t1
    dir=$(mktemp -d "$WORK/ref.XXXXXX") || die "cannot create a directory in $WORK"
    db="$dir/ref.db"
    sync
    t0=$(now)
    sqlite3 "$db" <"$SQL" >/dev/null || die "sqlite3 failed"
    t1=$(now)
    rm -rf "$dir"
    echo "$t0 $t1" | awk '{printf "%.2f\n", $2 - $1}'
}

sqlite_sb() {
    mkdir -p "$WORK/sb"
    sync
    "$SB" run sqlite -o count="$SQLITE_COUNT" -n 1 --exact-runs --no-drop-caches -t "$WORK/sb" 2>/dev/null |
        awk '/ Seconds /{print $1}'
}

# ---- cost per transaction (Read Write only) ----
# In the middle of a run: the CPU time (ns, /proc/PID/task/*/schedstat) that
# the client process and the cluster's server processes (every one works in
# the data directory) used over PG_CPU_WINDOW seconds, the WAL syncs
# (pg_stat_wal) and WAL bytes (the WAL position moved: pg_stat_wal's byte count
# lags by up to 10 s for an idle session such as storbench's loader), divided
# by the transactions committed meanwhile (rows added to pgbench_history). Counting, not timing: a busy neighbour slows
# both tools but changes neither's work.
PG_CPU_WINDOW=${PG_CPU_WINDOW:-$((PG_DURATION / 2))}
cpu_ns() { # PIDs -> total ns on CPU of all their threads
    local s=0 p f a
    for p in "$@"; do
        for f in /proc/"$p"/task/*/schedstat; do
            read -r a _ <"$f" 2>/dev/null && s=$((s + a))
        done
    done
    echo "$s"
}
server_pids() { # DATADIR
    local f c
    for f in /proc/[0-9]*/cwd; do
        c=$(readlink "$f" 2>/dev/null) || continue
        [ "$c" = "$1" ] && { f=${f#/proc/}; echo "${f%/cwd}"; }
    done
}
# "history_rows wal_sync wal_bytes" of the cluster at SOCKDIR
db_counts() {
    "$PGBIN/psql" -X -q -At -F ' ' -h "$1" -U storbench -d pgbench -c \
        "SELECT (SELECT count(*) FROM pgbench_history), wal_sync, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'), wal_sync_time FROM pg_stat_wal" 2>/dev/null
}
# Also the set-up time: from the tool's start (T0, before initdb) to its first
# committed transaction, and the mean time of one WAL sync (ms): both tools'
# sessions get track_wal_io_timing=on through PGOPTIONS (libpq reads it), the
# one setting this script adds; on a disk the sync time sets the TPS.
export PGOPTIONS="${PGOPTIONS:+$PGOPTIONS }-c track_wal_io_timing=on"
cost_sampler() { # SOCKDIR_GLOB CLIENT_PID OUTFILE: "client_us server_us wal_syncs wal_bytes setup_s sync_ms"
    local glob=$1 client=$2 out=$3 sock="" k1 k2 c1 c2 s1 s2 pids i=0 t1
    : >"$out"
    [ "$PG_MODE" = rw ] || return 0
    while kill -0 "$client" 2>/dev/null && [ $i -lt 3000 ]; do
        # shellcheck disable=SC2086
        sock=$(ls -d $glob 2>/dev/null | head -1)
        if [ -n "$sock" ] && [ -S "$sock/.s.PGSQL.5432" ]; then
            k1=$(db_counts "$sock")
            [ -n "$k1" ] && [ "${k1%% *}" -gt 0 ] && break
        fi
        sleep 0.1; i=$((i + 1))
    done
    t1=$(now)
    sleep 1
    pids=$(server_pids "$sock/data")
    # shellcheck disable=SC2086
    { k1=$(db_counts "$sock"); c1=$(cpu_ns "$client"); s1=$(cpu_ns $pids); }
    sleep "$PG_CPU_WINDOW"
    # shellcheck disable=SC2086
    { c2=$(cpu_ns "$client"); s2=$(cpu_ns $pids); k2=$(db_counts "$sock"); }
    [ -n "$k1" ] && [ -n "$k2" ] &&
        awk -v a="$k1" -v b="$k2" -v c=$((c2 - c1)) -v s=$((s2 - s1)) -v su="$(echo "$T0 $t1" | awk '{print $2 - $1}')" 'BEGIN {
            split(a, x, " "); split(b, y, " "); n = y[1] - x[1]
            if (n > 0) printf "%.1f %.1f %.3f %.0f %.1f %.3f\n", c / n / 1000, s / n / 1000,
                              (y[2] - x[2]) / n, (y[3] - x[3]) / n, su,
                              (y[2] > x[2]) ? (y[4] - x[4]) / (y[2] - x[2]) : 0 }' >"$out"
}

pg_ref() {
    local d="$WORK/pgref" out
    T0=$(now)
    mkdir -p "$d" && [ "$(id -u)" = 0 ] && chown postgres: "$d"
    "${AS_PG[@]}" env LC_ALL=C "$PGBIN/initdb" -D "$d/data" -U storbench --auth=trust \
        --encoding=SQL_ASCII --locale=C --no-sync >/dev/null 2>&1 || die "initdb failed"
    "${AS_PG[@]}" "$PGBIN/postgres" -D "$d/data" -p 5432 -c listen_addresses= \
        -c unix_socket_directories="$d" -c autovacuum=off -c max_connections=100 \
        >"$WORK/pgref.log" 2>&1 &
    PGPID=$!
    local i=0
    until "$PGBIN/pg_isready" -q -h "$d" -p 5432; do
        sleep 0.1; i=$((i + 1)); [ $i -gt 600 ] && die "reference server did not start"
    done
    "$PGBIN/psql" -q -h "$d" -U storbench -d postgres -c "CREATE DATABASE pgbench" >/dev/null
    "$PGBIN/pgbench" -q -i -s "$PG_SCALE" -h "$d" -U storbench pgbench >/dev/null 2>&1 ||
        die "pgbench -i failed"
    "$PGBIN/psql" -q -h "$d" -U storbench -d pgbench -c CHECKPOINT >/dev/null
    # shellcheck disable=SC2086
    "$PGBIN/pgbench" $PG_S -M "$PG_QUERY" -c "$CLIENTS" -j "$THREADS" -T "$PG_DURATION" \
        -h "$d" -U storbench pgbench >"$WORK/pgref.out" 2>/dev/null &
    local client=$!
    cost_sampler "$d" "$client" "$WORK/cpu"
    wait "$client"
    out=$(cat "$WORK/pgref.out")
    kill -INT "$PGPID"; wait "$PGPID" 2>/dev/null; PGPID=""
    rm -rf "$d"
    # pgbench 15: "tps = 1234.5 (without initial connection time)"
    echo "$out" | awk '/^tps = .*without initial connection time/ {printf "%.2f\n", $3}'
}

pg_sb() {
    mkdir -p "$WORK/sb"
    T0=$(now)
    "$SB" run pgbench -o scale="$PG_SCALE" -o duration="$PG_DURATION" -o test="$PG_TEST" -o mode="$PG_MODE" \
        -o query-mode="$PG_QUERY" -o clients="$CLIENTS" -o threads="$THREADS" \
        -n 1 --exact-runs --no-drop-caches -t "$WORK/sb" >"$WORK/pgsb.out" 2>/dev/null &
    local client=$!
    cost_sampler "$WORK/sb/storbench-*/pgsql" "$client" "$WORK/cpu"
    wait "$client"
    awk '/ TPS /{print $1}' "$WORK/pgsb.out"
}

report() { # name unit refs sbs
    local name=$1 unit=$2 refs=$3 sbs=$4 rm sm
    rm=$(echo "$refs" | tr ' ' '\n' | grep . | mean)
    sm=$(echo "$sbs" | tr ' ' '\n' | grep . | mean)
    printf '%-8s reference:%s  -> %s %s\n' "$name" "$refs" "$rm" "$unit"
    printf '%-8s storbench:%s  -> %s %s\n' "$name" "$sbs" "$sm" "$unit"
    awk -v a="$sm" -v b="$rm" -v n="$name" 'BEGIN {
        if (b > 0) { r = a / b; printf "%-8s ratio storbench/reference = %.3f %s\n", n, r,
                     (r >= 0.85 && r <= 1.15) ? "(within 0.85..1.15)" : "(OUTSIDE 0.85..1.15)" } }'
    # Each round's pair ran back to back: the median of the paired ratios
    # is less sensitive to a noisy neighbour than the ratio of the means.
    awk -v rs="$refs" -v ss="$sbs" -v n="$name" 'BEGIN {
        k = split(rs, r, " "); split(ss, s, " "); m = 0
        for (i = 1; i <= k; i++) if (r[i] > 0 && s[i] != "") q[++m] = s[i] / r[i]
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (q[j] < q[i]) { t = q[i]; q[i] = q[j]; q[j] = t }
        line = ""; for (i = 1; i <= m; i++) line = line sprintf(" %.3f", q[i])
        if (m) printf "%-8s paired ratios (sorted):%s  median %.3f\n", n, line,
                      (m % 2) ? q[(m + 1) / 2] : (q[m / 2] + q[m / 2 + 1]) / 2
        l = 0; for (i = 1; i <= m; i++) l += log(q[i])
        if (m) printf "%-8s paired ratios: geomean %.3f  min %.3f  max %.3f  (%d rounds)\n", n,
                      exp(l / m), q[1], q[m], m }'
}

echo "target: $TARGET ($(stat -f -c %T "$TARGET")), rounds: $ROUNDS"
echo "sqlite: $(sqlite3 --version | cut -d' ' -f1), $SQLITE_COUNT INSERTs x 3"
echo "pgbench: $("$PGBIN/pgbench" --version), scale $PG_SCALE, mode $PG_MODE, query mode $PG_QUERY, $CLIENTS clients, $THREADS threads, ${PG_DURATION}s"

# Each measurement runs in this shell (not in $(...)), so that the EXIT trap
# knows a reference server that is still running.
SQ_REF="" SQ_SB="" PG_REF="" PG_SB="" CPU_REF="" CPU_SB=""
sq_ref() { [ "$ONLY" = pgbench ] && return; sqlite_ref >"$WORK/fig"; SQ_REF="$SQ_REF $(cat "$WORK/fig")"; }
sq_sb() { [ "$ONLY" = pgbench ] && return; SQ_SB="$SQ_SB $(sqlite_sb)"; }
p_ref() {
    [ "$ONLY" = sqlite ] && return
    pg_ref >"$WORK/fig"; PG_REF="$PG_REF $(cat "$WORK/fig")"
    CPU_REF="$CPU_REF$(cat "$WORK/cpu");"
}
p_sb() {
    [ "$ONLY" = sqlite ] && return
    PG_SB="$PG_SB $(pg_sb)"
    CPU_SB="$CPU_SB$(cat "$WORK/cpu");"
}
for r in $(seq 1 "$ROUNDS"); do
    # Alternate which goes first, so neither always runs on a warmer machine.
    if [ $((r % 2)) = 1 ]; then
        sq_ref; sq_sb; p_ref; p_sb
    else
        sq_sb; sq_ref; p_sb; p_ref
    fi
    echo "round $r:$SQ_REF |$SQ_SB |$PG_REF |$PG_SB | per tx (client_us server_us wal_syncs wal_bytes setup_s sync_ms) ref $CPU_REF sb $CPU_SB" >&2
done
[ "$ONLY" = pgbench ] || report sqlite Seconds "$SQ_REF" "$SQ_SB"
[ "$ONLY" = sqlite ] || report pgbench TPS "$PG_REF" "$PG_SB"
cpu_line() { # NAME "c s;c s;..."
    echo "$2" | tr ';' '\n' | awk -v n="$1" 'NF == 6 {c += $1; s += $2; w += $3; b += $4; u += $5; t += $6; k++}
        END {if (k) printf "pgbench  %s per transaction (mean of %d windows): CPU us client %.1f, server %.1f, total %.1f; WAL syncs %.3f of %.3f ms, WAL bytes %.0f; set-up %.1f s\n", n, k, c / k, s / k, (c + s) / k, w / k, t / k, b / k, u / k}'
}
if [ "$ONLY" != sqlite ] && [ "$PG_MODE" = rw ]; then
    cpu_line reference "$CPU_REF"
    cpu_line storbench "$CPU_SB"
fi
