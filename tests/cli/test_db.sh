# CLI tests of the database workloads (sqlite, pgbench) end to end: a tiny
# sqlite run leaves nothing on the target and records the SQLite version; a
# pgbench run without server binaries is skipped with one line naming the
# package; a short pgbench run at scale 1 works and leaves no process and no
# file, with the seed's option line, and in prepared query mode names the mode;
# a bad query mode is refused; Ctrl-C and SIGKILL during a pgbench run leave no
# postgres process.
. "$(dirname "$0")/lib.sh"

# The pgbench server runs as an unprivileged user when we are root: it must
# be able to pass through $T (mktemp makes it 0700).
chmod 711 "$T"

# Processes of any cluster under DIR: every server process works in its
# data directory (/proc/PID/cwd, still shown after deletion); backends
# overwrite their command line and environment with a process title.
pg_procs() {
    local n=0 f c
    for f in /proc/[0-9]*/cwd; do
        c=$(readlink "$f" 2>/dev/null) || continue
        case "$c" in "$1"/*) n=$((n + 1)) ;; esac
    done
    echo "$n"
}
empty_dir() { [ -d "$1" ] && [ -z "$(ls -A "$1")" ]; }
# Waits up to $2 tenths of a second for a file matching glob $1.
wait_for() {
    local i=0
    while [ $i -lt "$2" ]; do
        # shellcheck disable=SC2086
        ls $1 >/dev/null 2>&1 && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}

# ---- sqlite ----
mkdir -p "$T/sq"
check_exit "sqlite tiny run" 0 "$SB" run sqlite -o count=20 -t "$T/sq" -n 1 --exact-runs -r dbt -i one
if grep -q "Seconds" "$T/out"; then ok "sqlite prints seconds"; else not_ok "sqlite prints seconds"; fi
check "sqlite leaves the target empty" empty_dir "$T/sq"
res=$(ls "$XDG_DATA_HOME"/storbench/results/dbt* 2>/dev/null | head -1)
if [ -n "$res" ] && grep -q "sqlite_version_number" "$res"; then
    ok "sqlite records its version"
else
    not_ok "sqlite records its version ($res)"
fi
check_exit "sqlite rejects an unknown journal mode" 2 "$SB" run sqlite -o journal=memory -t "$T/sq"

# ---- pgbench ----
STORBENCH_PG_BINDIR=/nonexistent check_exit "pgbench without server binaries is skipped" 0 \
    "$SB" run pgbench -q -t "$T/sq"
check_one_line "skip is one line naming the package" "package postgresql"

if [ "$(id -u)" = 0 ]; then
    mkdir -p "$T/locked/t" && chmod 700 "$T/locked" && chmod 755 "$T/locked/t"
    if id postgres >/dev/null 2>&1; then
        check_exit "pgbench: unreachable target is skipped" 0 "$SB" run pgbench -q -t "$T/locked/t"
        check_one_line "unreachable target: one line" "traversable"
        check "unreachable target: nothing left" empty_dir "$T/locked/t"
    fi
fi

mkdir -p "$T/pg"
check_exit "pgbench scale 1 run" 0 "$SB" run pgbench -q -o duration=2 -n 1 --exact-runs -t "$T/pg"
if grep -q "TPS" "$T/out"; then ok "pgbench prints TPS"; else not_ok "pgbench prints TPS"; fi
# the seed's line, then the quick run's override named (issue 26)
if grep -q "Mode: Read Write - Duration: 2\]" "$T/out"; then ok "default option line is the seed's, with the override"; else not_ok "default option line is the seed's, with the override ($(grep -o '\[.*\]' "$T/out" | head -1))"; fi
check_exit "pgbench prepared query mode" 0 "$SB" run pgbench -q -o duration=1 -o query-mode=prepared -n 1 --exact-runs -t "$T/pg"
if grep -q "Query Mode: Prepared" "$T/out"; then ok "prepared mode in the option line"; else not_ok "prepared mode in the option line"; fi
check_exit "pgbench rejects an unknown query mode" 2 "$SB" run pgbench -o query-mode=pipeline -t "$T/pg"
if [ "$(pg_procs "$T/pg")" -eq 0 ]; then ok "no postgres process after a run"; else not_ok "no postgres process after a run"; fi
check "pgbench leaves the target empty" empty_dir "$T/pg"

# Ctrl-C (SIGINT to storbench) while the server runs.
"$SB" run pgbench -q -o duration=60 -n 1 --exact-runs -t "$T/pg" >"$T/out" 2>"$T/err" &
pid=$!
if wait_for "$T/pg/storbench-*/pgsql/.s.PGSQL.5432" 600; then
    ok "server socket appears"
    if [ "$(pg_procs "$T/pg")" -gt 0 ]; then ok "server processes seen"; else not_ok "server processes seen"; fi
    sleep 1
    kill -INT "$pid"
else
    not_ok "server socket appears"
    kill -INT "$pid"
fi
wait "$pid"; rc=$?
if [ "$rc" -eq 130 ]; then ok "interrupted run exits 130"; else not_ok "interrupted run exits 130 (exit $rc: $(head -c 300 "$T/err"))"; fi
if [ "$(pg_procs "$T/pg")" -eq 0 ]; then ok "no postgres process after Ctrl-C"; else not_ok "no postgres process after Ctrl-C"; fi
check "Ctrl-C leaves the target empty" empty_dir "$T/pg"

# SIGKILL: storbench cannot clean up, but the server must not outlive it.
"$SB" run pgbench -q -o duration=60 -n 1 --exact-runs -t "$T/pg" >"$T/out" 2>"$T/err" &
pid=$!
if wait_for "$T/pg/storbench-*/pgsql/.s.PGSQL.5432" 600; then
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    i=0
    while [ "$(pg_procs "$T/pg")" -gt 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    if [ "$(pg_procs "$T/pg")" -eq 0 ]; then ok "no postgres process after SIGKILL"; else not_ok "no postgres process after SIGKILL"; fi
else
    kill -KILL "$pid"; wait "$pid" 2>/dev/null
    not_ok "server socket appears (SIGKILL test)"
fi
rm -rf "$T/pg"

finish
