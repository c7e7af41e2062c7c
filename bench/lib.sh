# shellcheck shell=bash
# bench/lib.sh — shared pieces of the bench/ scripts that compare storbench with
# the reference tools: running one measurement so that an interrupt can stop it,
# one `storbench run` and reading its figures, each reference tool run the way
# the seed profiles ran it (printing its raw figures), a private PostgreSQL
# server, and the statistics of paired ratios.
#
# Sourced, never run:  . "$(dirname "$0")/lib.sh"
# The sourcing script sets LIB_NAME (for messages) and LIB_WORK (its private
# scratch directory, removed by lib_cleanup), then installs the traps:
#     trap lib_cleanup EXIT; trap 'exit 130' INT TERM HUP
# Every measurement function runs in the calling shell (never inside $(...)),
# so that the EXIT trap knows the process or server that is still running;
# it writes its figures as "NAME VALUE" lines to the file "$LIB_WORK/fig".

LIB_NAME=${LIB_NAME:-bench}
LIB_WORK=${LIB_WORK:-}
LIB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SB=${STORBENCH:-$LIB_ROOT/storbench}
LIB_CHILD=""     # session id of the measurement now running (see lib_run)
LIB_LAST_OUT=""  # where the last lib_run sent its output (for error messages)
LIB_PGPID=""     # reference PostgreSQL server now running
LIB_PREFAULT=""  # the file lib_prefault_memory is writing
LIB_PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
export LC_ALL=C  # dd and the others print decimal points, not commas

lib_die() { echo "$LIB_NAME: $*" >&2; exit 1; }
lib_now() { date +%s.%N; }

# lib_hold_page_reporting: stops free page reporting for the rest of the
# script (lib_cleanup restores it). Why: this VM's balloon device offers
# VIRTIO_BALLOON_F_REPORTING and the guest reports free 2-MiB blocks to the
# host, which drops their backing, so memory one run frees and leaves idle for
# a few seconds is first-touch memory again for the next run: the same 4 GiB
# dd into /dev/shm read 1.2-3.7 GB/s depending on how long ago memory was
# freed. Only blocks of page_reporting_order or more are reported; an order
# above the allocator's largest block stops it (here 11: 0 KiB reported while
# five 4-GiB files were written and removed with pauses of up to 15 s, each
# written at 3.5-3.7 GB/s). Writes the highest order the kernel accepts and
# keeps the old one in LIB_PR_ORDER. Nothing happens without the parameter
# (no balloon, not root). PAGE_REPORTING=keep leaves it alone.
LIB_PR_PARAM=/sys/module/page_reporting/parameters/page_reporting_order
LIB_PR_ORDER=""
lib_hold_page_reporting() {
    local o
    [ "${PAGE_REPORTING:-}" = keep ] && return 0
    [ -w "$LIB_PR_PARAM" ] && [ -z "$LIB_PR_ORDER" ] || return 0
    LIB_PR_ORDER=$(cat "$LIB_PR_PARAM") || { LIB_PR_ORDER=""; return 0; }
    for o in 16 15 14 13 12 11; do
        [ "$o" -le "$LIB_PR_ORDER" ] && break
        if echo "$o" >"$LIB_PR_PARAM" 2>/dev/null; then
            echo "$LIB_NAME: free page reporting held off (page_reporting_order $LIB_PR_ORDER -> $o until the end; PAGE_REPORTING=keep leaves it)" >&2
            return 0
        fi
    done
    LIB_PR_ORDER=""
    return 0
}
lib_release_page_reporting() {
    [ -n "$LIB_PR_ORDER" ] && echo "$LIB_PR_ORDER" >"$LIB_PR_PARAM" 2>/dev/null
    LIB_PR_ORDER=""
    return 0
}

# lib_prefault_memory: touches the machine's free memory before anything is
# measured. Why: in a virtual machine the host backs guest memory on first
# touch, so a page the guest has never used costs a host fault the first time
# (measured here right after boot: 18 GiB of zeros into tmpfs at 370 MB/s,
# then 1 GB/s the second time). Whichever tool first writes into such memory
# (a tmpfs file, a page cache that grows) loses up to 8x: the first dd direct
# write of a fresh machine read 409 MB/s against 3,150 for the same job right
# after. Free page reporting (above) makes memory untouched again, so this
# first holds reporting off, then writes a file of MemAvailable minus 4 GiB
# (at most /dev/shm's free space) to /dev/shm and removes it. It runs once
# per boot (a marker in /run, cleared at boot) where reporting was already
# held off or cannot be, and at every script's start where this script had to
# stop it. PREFAULT=0 turns it off.
lib_prefault_memory() {
    local marker=/run/storbench-bench-prefaulted avail shm mib
    lib_hold_page_reporting
    [ "${PREFAULT:-1}" = 0 ] && return 0
    [ -e "$marker" ] && [ -z "$LIB_PR_ORDER" ] && return 0
    [ -d /dev/shm ] && [ -w /dev/shm ] || return 0
    avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
    shm=$(df -P -BM /dev/shm | awk 'NR == 2 { sub("M", "", $4); print $4 }')
    mib=$(( ${avail:-0} - 4096 ))
    [ "$mib" -gt "${shm:-0}" ] && mib=$(( ${shm:-0} - 512 ))
    [ "$mib" -gt 1024 ] || return 0
    echo "$LIB_NAME: touching ${mib} MiB of free memory (first use of a VM's memory is slow; PREFAULT=0 skips)" >&2
    LIB_PREFAULT=$(mktemp /dev/shm/storbench-prefault.XXXXXX) || return 0
    lib_run dd if=/dev/zero of="$LIB_PREFAULT" bs=1M count="$mib" status=none
    rm -f "$LIB_PREFAULT"
    LIB_PREFAULT=""
    touch "$marker" 2>/dev/null
    return 0
}

# As root a PostgreSQL server must run as another user (it refuses root):
# postgres, as storbench's own cluster does. setpriv execs in place, so the
# pid of a background `setpriv ... postgres` is the server's.
LIB_AS_PG=()
[ "$(id -u)" = 0 ] && LIB_AS_PG=(setpriv --reuid=postgres --regid=postgres --clear-groups --)

# lib_run [-C DIR] [-i FILE] [-o FILE] [-s] CMD...: runs CMD (in DIR) in a
# session of its own and waits. Why a session: `kill -- -SID` then reaches
# every process CMD started (dbench's clients, fio's jobs), and bash runs the
# INT/TERM trap while it waits in `wait`, where a foreground command would
# delay it to the end. Standard input is /dev/null unless -i; standard output
# and error go to -o (else inherited). Never call it inside a subshell: the
# traps would not know the child.
# -s also sets LIB_CPU, LIB_RUNQ and LIB_WALL (see lib_sched_watch): the
# seconds CMD's process spent on a CPU, waiting in the run queue for one,
# and from its start to its end.
LIB_CPU="" LIB_RUNQ="" LIB_WALL=""
lib_run() {
    local dir=. in=/dev/null out=/dev/stdout rc sched=0 t0
    while :; do
        case "$1" in
            -C) dir=$2; shift 2 ;;
            -i) in=$2; shift 2 ;;
            -o) out=$2; shift 2 ;;
            -s) sched=1; shift ;;
            *) break ;;
        esac
    done
    LIB_LAST_OUT=$out
    t0=$(lib_now)
    # The background subshell is no process-group leader, so setsid(1) makes
    # the new session in place and $! is its id.
    (cd "$dir" && exec setsid "$@") <"$in" >"$out" 2>&1 &
    LIB_CHILD=$!
    [ $sched = 1 ] && lib_sched_watch "$LIB_CHILD"
    wait "$LIB_CHILD"
    rc=$?
    LIB_CHILD=""
    [ $sched = 1 ] && LIB_WALL=$(awk -v a="$t0" -v b="$(lib_now)" 'BEGIN { printf "%.6f", b - a }')
    return $rc
}

# lib_sched_watch PID: until PID is gone, reads every 50 ms each of its
# threads' /proc/PID/task/TID/schedstat (nanoseconds on a CPU, nanoseconds
# runnable but waiting for one; kept by every Linux with CONFIG_SCHED_INFO)
# and sets LIB_CPU to the sum of the threads' CPU seconds and LIB_RUNQ to the
# run-queue seconds of the busiest thread (most time on a CPU: the one doing
# the work; storbench's sqlite has a main thread waking every 50 ms beside
# its copy thread, and the two waits overlap, so a sum would exceed the wall
# time). Why: on a shared machine a CPU-bound test's wall time is mostly the wait
# for a CPU (PostMark on ext4 here: 4.2 s on a CPU, 11-25 s in the run
# queue, docs/fidelity.md); wall time minus that wait compares the two tools
# without it. Builtins only (read -t on a private pipe as the sleep): the
# watcher must not add forks to the load it measures. A thread that ends
# between two looks loses at most its last 50 ms.
lib_sched_watch() {
    local pid=$1 t c w rest tick state=R
    local -A cpu=() runq=()
    exec {tick}<> <(:)
    # Until it is gone or a zombie (whose counters are its last ones, read
    # once more): bash may reap it before `wait`.
    while [ "$state" != Z ] && read -r rest 2>/dev/null <"/proc/$pid/stat"; do
        state=${rest##*) } state=${state%% *}
        for t in /proc/"$pid"/task/*; do
            read -r c w rest 2>/dev/null <"$t/schedstat" || continue
            cpu[${t##*/}]=$c runq[${t##*/}]=$w
        done
        [ "$state" = Z ] || read -r -t 0.05 -u "$tick" rest
    done
    exec {tick}>&-
    c=0 w=0 rest=-1
    for t in "${!cpu[@]}"; do
        c=$((c + cpu[$t]))
        [ "${cpu[$t]}" -gt "$rest" ] && rest=${cpu[$t]} w=${runq[$t]}
    done
    LIB_CPU=$(awk -v n="$c" 'BEGIN { printf "%.6f", n / 1e9 }')
    LIB_RUNQ=$(awk -v n="$w" 'BEGIN { printf "%.6f", n / 1e9 }')
}

lib_pg_stop() {
    [ -n "$LIB_PGPID" ] || return 0
    kill -INT "$LIB_PGPID" 2>/dev/null   # fast shutdown
    wait "$LIB_PGPID" 2>/dev/null
    LIB_PGPID=""
}

lib_cleanup() {
    trap '' INT TERM HUP
    if [ -n "$LIB_CHILD" ]; then
        # storbench stops its own PostgreSQL on SIGTERM; the others just die.
        kill -TERM -- -"$LIB_CHILD" 2>/dev/null
        wait "$LIB_CHILD" 2>/dev/null
        LIB_CHILD=""
    fi
    lib_pg_stop
    [ -n "$LIB_PREFAULT" ] && rm -f "$LIB_PREFAULT"
    lib_release_page_reporting
    [ -n "$LIB_WORK" ] && rm -rf "$LIB_WORK"
    return 0
}

# lib_fig NAME VALUE: record one figure of the measurement just made.
lib_fig() { echo "$1 $2" >>"$LIB_WORK/fig"; }

# ---------------------------------------------------------------- storbench --

# sb_run DIR TEST[:K=V,...] [EXTRA RUN OPTIONS]: one run of one test in DIR,
# exactly once, page cache left alone (as the reference tools leave it);
# result file $LIB_WORK/sb.json, the process's CPU and run-queue seconds in
# LIB_CPU and LIB_RUNQ. Fails when the test did not report.
sb_run() {
    local dir=$1 spec=$2
    shift 2
    rm -f "$LIB_WORK/sb.json"
    mkdir -p "$dir"
    lib_run -s -o "$LIB_WORK/sb.log" "$SB" run "$spec" -t "$dir" -r "$LIB_WORK/sb.json" -i bench \
        -n 1 --exact-runs --no-drop-caches "$@" || return 1
    [ -s "$LIB_WORK/sb.json" ]
}

# sb_mean [DESCRIPTION-REGEX]: headline of the (first matching) result.
sb_mean() {
    jq -r --arg d "${1:-.}" '[.results[] | select(.description | test($d)) |
        .entries[0].mean][0] // empty' "$LIB_WORK/sb.json"
}

# sb_secondary NAME [DESCRIPTION-REGEX]: a secondary figure of that result.
sb_secondary() {
    jq -r --arg n "$1" --arg d "${2:-.}" '[.results[] | select(.description | test($d)) |
        .entries[0].secondary[]? | select(.name == $n) | .value][0] // empty' "$LIB_WORK/sb.json"
}

# ---------------------------------------------------------- reference tools --

# ref_dd DIR BS COUNT: GNU dd as the wiki (seed 004): direct write from
# /dev/zero, direct read, then the read cache. The wiki's third dd would be a
# cold read (nothing is cached after direct I/O), so the file is read once
# untimed first, as storbench does (docs/workloads.md). Figures in MB/s.
ref_dd() {
    local dir=$1 bs=$2 count=$3 f="$1/tstfile"
    mkdir -p "$dir"
    lib_run -o "$LIB_WORK/dd.w" dd if=/dev/zero of="$f" bs="$bs" count="$count" oflag=direct &&
        lib_run -o "$LIB_WORK/dd.r" dd if="$f" of=/dev/null bs="$bs" count="$count" iflag=direct &&
        lib_run -o "$LIB_WORK/dd.u" dd if="$f" of=/dev/null bs="$bs" count="$count" &&
        lib_run -o "$LIB_WORK/dd.c" dd if="$f" of=/dev/null bs="$bs" count="$count" || return 1
    rm -f "$f"
    local k
    for k in w:direct-write r:direct-read c:read-cache; do
        # "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 3.53208 s, 304 MB/s"
        lib_fig "${k#*:}" "$(awk '/ copied, / { for (i = 2; i <= NF; i++) if ($i == "s," || $i == "s")
            printf "%.6f\n", $1 / $(i - 1) / 1e6 }' "$LIB_WORK/dd.${k%%:*}")"
    done
}

# ref_iozone DIR SIZE RECORD: IOzone ($IOZONE, built outside the repository:
# docs/fidelity.md) as the seed profile ran it (pts/iozone 1.8.0: `iozone -e
# -r RECORD -s SIZE -i0 -i1` in the test's directory). Figures: its "write" and
# "read" columns (KiB/s) / 1024, the profile's Write and Read Performance.
ref_iozone() {
    local dir=$1
    mkdir -p "$dir"
    lib_run -C "$dir" -o "$LIB_WORK/iozone.log" "$IOZONE" -e -r "$3" -s "$2" -i0 -i1 || return 1
    rm -f "$dir/iozone.tmp"
    # The line after the column heads "KB  reclen   write rewrite    read    reread".
    awk 'prev ~ /reclen +write +rewrite +read/ && $1 ~ /^[0-9]+$/ {
        printf "write %.6f\nread %.6f\n", $3 / 1024, $5 / 1024 } { prev = $0 }' \
        "$LIB_WORK/iozone.log" >>"$LIB_WORK/fig"
}

# ref_compilebench DIR TREES: compilebench ($COMPILEBENCH, the script, with its
# data set files beside it; not in Debian: docs/fidelity.md) as the seed
# profile's initial create (pts/compilebench: `-D t -i 10 --makej`; `-r 0`
# stops after the same initial create). Figure: "intial create ... avg X MB/s".
ref_compilebench() {
    mkdir -p "$1"
    lib_run -o "$LIB_WORK/cb.log" python3 "$COMPILEBENCH" -D "$1/t" -i "$2" -r 0 \
        -s "$(dirname "$COMPILEBENCH")" || return 1
    rm -rf "$1/t"
    lib_fig initial_create "$(awk '/^intial create total runs/ { print $7 }' "$LIB_WORK/cb.log")"
}

# ref_fio DIR ARGS...: one fio job on one file in DIR; figure: IOPS of the
# direction that ran (fio --output-format=json).
ref_fio() {
    local dir=$1
    shift
    mkdir -p "$dir"
    lib_run -o "$LIB_WORK/fio.log" fio --name=bench --filename="$dir/fio.dat" --output-format=json \
        --output="$LIB_WORK/fio.json" "$@" || return 1
    rm -f "$dir/fio.dat"
    lib_fig iops "$(jq -r '.jobs[0].read.iops + .jobs[0].write.iops' "$LIB_WORK/fio.json")"
}

# ref_fsmark DIR FILES THREADS [SUBDIRS]: fs_mark 1 MiB files, 16 KiB writes,
# fsync before close, one loop; files per thread. With SUBDIRS the files go
# round-robin over that many sub-directories (-N 1), as storbench spreads
# them (fs_mark without -N would rotate by a time hash: one directory in
# practice). Figure: Files/s.
ref_fsmark() {
    local dir=$1 n=$2 t=$3 d=${4:-0} sub=()
    [ "$d" -gt 0 ] && sub=(-D "$d" -N 1)
    mkdir -p "$dir/fsm"
    # fs_mark writes its log (fs_log.txt) into the current directory, and
    # refuses a -d path of 40 bytes or more: relative to DIR it is short.
    lib_run -C "$dir" -o "$LIB_WORK/fsm.out" fs_mark -d fsm -s 1048576 -n "$n" \
        -t "$t" -S 1 -w 16384 -L 1 "${sub[@]}" || return 1
    rm -rf "$dir/fsm" "$dir/fs_log.txt"
    lib_fig files_per_s "$(awk '/Files\/sec/ { getline; print $4; exit }' "$LIB_WORK/fsm.out")"
}

# ref_postmark DIR TRANSACTIONS: PostMark with the seed profile's settings.
# Figures: tps as PostMark prints it (whole seconds of the transaction phase)
# and seconds, the wall-clock time of the whole postmark process (pool,
# transactions, deletion), to the nanosecond; lib_fig_sched's two.
ref_postmark() {
    local dir=$1 tx=$2 t0 t1
    mkdir -p "$dir/pm"
    printf '%s\n' "set location $dir/pm" "set number 500" "set size 5120 524288" \
        "set transactions $tx" "set read 512" "set write 512" "set buffering true" \
        "set bias read 5" "set bias create 5" "set seed 42" "run" "quit" >"$LIB_WORK/pm.cfg"
    t0=$(lib_now)
    lib_run -s -C "$dir/pm" -i "$LIB_WORK/pm.cfg" -o "$LIB_WORK/pm.out" postmark || return 1
    t1=$(lib_now)
    rm -rf "$dir/pm"
    lib_fig tps "$(sed -n 's/.*seconds of transactions (\([0-9.]*\) per second).*/\1/p' "$LIB_WORK/pm.out")"
    lib_fig seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')"
    lib_fig_sched
}

# lib_fig_sched: after a lib_run -s (or sb_run), the figures cpu-seconds
# (LIB_CPU: the process's time on a CPU) and minus-runq (the process's wall
# time less LIB_RUNQ, the time it waited for a CPU: other jobs' doing on a
# shared machine). Whole processes on both sides: storbench's start and
# report are in its figures (about 0.01 s of CPU), its in-process timing is not
# used here because the wait is only known for the whole process.
lib_fig_sched() {
    lib_fig cpu-seconds "$LIB_CPU"
    lib_fig minus-runq "$(awk -v s="$LIB_WALL" -v q="$LIB_RUNQ" 'BEGIN { printf "%.6f", s - q }')"
}

# ref_dbench DIR CLIENTS SECONDS: dbench 4.0 with client.txt; its warm-up is
# SECONDS / 5 before the SECONDS measured. Figure: MB/s ("Throughput").
LIB_LOADFILE=/usr/share/dbench/client.txt
ref_dbench() {
    local dir=$1
    mkdir -p "$dir/db"
    lib_run -o "$LIB_WORK/db.out" dbench -D "$dir/db" -t "$3" -c "$LIB_LOADFILE" "$2" || return 1
    rm -rf "$dir/db"
    lib_fig mb_per_s "$(awk '/^Throughput/ { print $2 }' "$LIB_WORK/db.out")"
}

# lib_sqlite_sql FILE COUNT: the statements of the SQLite profile: one CREATE
# TABLE, then COUNT single-row INSERTs 3 times (random digits, fixed seed).
lib_sqlite_sql() {
    awk -v n="$2" 'BEGIN {
        srand(42)
        print "CREATE TABLE pts1 (\047I\047 SMALLINT NOT NULL, \047DT\047 TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, \047F1\047 VARCHAR(4) NOT NULL, \047F2\047 VARCHAR(16) NOT NULL);"
        for (p = 0; p < 3; p++)
            for (i = 1; i <= n; i++) {
                f1 = ""; f2 = ""
                for (k = 0; k < 4; k++) f1 = f1 int(rand() * 10)
                for (k = 0; k < 16; k++) f2 = f2 int(rand() * 10)
                printf "INSERT INTO pts1 VALUES (%d, CURRENT_TIMESTAMP, \047%s\047, \047%s\047);\n", i, f1, f2
            }
    }' >"$1"
}

# ref_sqlite DIR SQLFILE: the sqlite3 shell fed the statements (each INSERT
# autocommitted, default journal and sync). Figure: wall-clock seconds, and
# lib_fig_sched's two.
ref_sqlite() {
    local dir=$1 db="$1/ref.db" t0 t1
    mkdir -p "$dir"
    rm -f "$db" "$db-journal"
    t0=$(lib_now)
    lib_run -s -i "$2" -o "$LIB_WORK/sqlite.log" sqlite3 "$db" || return 1
    t1=$(lib_now)
    rm -f "$db" "$db-journal"
    lib_fig seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')"
    lib_fig_sched
}

# lib_pg_start DIR: a private cluster set up as storbench sets up its own
# (initdb SQL_ASCII/C, trust, socket only in DIR, autovacuum off,
# max_connections 100), running as postgres when we are root. DIR's parents
# must be traversable by that user.
lib_pg_start() {
    local d=$1 i=0
    [ -n "$LIB_PGBIN" ] || return 1
    mkdir -p "$d"
    [ "$(id -u)" = 0 ] && chown postgres: "$d"
    "${LIB_AS_PG[@]}" "$LIB_PGBIN/initdb" -D "$d/data" -U storbench --auth=trust \
        --encoding=SQL_ASCII --locale=C --no-sync >"$LIB_WORK/initdb.log" 2>&1 || return 1
    # In a session of its own: a terminal's Ctrl-C reaches this script, which
    # then stops the server in order (lib_cleanup).
    setsid "${LIB_AS_PG[@]}" "$LIB_PGBIN/postgres" -D "$d/data" -p 5432 -c listen_addresses= \
        -c unix_socket_directories="$d" -c autovacuum=off -c max_connections=100 \
        </dev/null >"$LIB_WORK/pg.log" 2>&1 &
    LIB_PGPID=$!
    until "$LIB_PGBIN/pg_isready" -q -h "$d" -p 5432; do
        sleep 0.1
        i=$((i + 1))
        [ $i -gt 600 ] && return 1
        kill -0 "$LIB_PGPID" 2>/dev/null || return 1
    done
}

# ref_pgbench DIR SCALE CLIENTS THREADS SECONDS [PGBENCH OPTIONS]: pgbench on
# a fresh private cluster: -i -s SCALE, a CHECKPOINT, then the TPC-B-like
# run. Without options pgbench uses its default simple query protocol.
# Figure: TPS excluding connection setup.
ref_pgbench() {
    local dir=$1 scale=$2 c=$3 j=$4 t=$5 d="$1/pg"
    shift 5
    lib_pg_start "$d" || { lib_pg_stop; return 1; }
    "$LIB_PGBIN/psql" -q -h "$d" -U storbench -d postgres -c "CREATE DATABASE pgbench" >/dev/null &&
        lib_run -o "$LIB_WORK/pgbench-i.log" "$LIB_PGBIN/pgbench" -q -i -s "$scale" -h "$d" -U storbench pgbench &&
        "$LIB_PGBIN/psql" -q -h "$d" -U storbench -d pgbench -c CHECKPOINT >/dev/null &&
        lib_run -o "$LIB_WORK/pgbench.out" "$LIB_PGBIN/pgbench" "$@" -c "$c" -j "$j" -T "$t" \
            -h "$d" -U storbench pgbench
    local rc=$?
    lib_pg_stop
    rm -rf "$d"
    [ $rc = 0 ] || return 1
    # pgbench 15: "tps = 1234.5 (without initial connection time)"
    lib_fig tps "$(awk '/^tps = .*without initial connection time/ { print $3 }' "$LIB_WORK/pgbench.out")"
}

# ------------------------------------------------------------------- stats --

# lib_summary TSV: one row per test and figure from the pairs file written by
# bench/fidelity.sh (columns: round test figure unit better first reference
# storbench ratio): means of the raw values, geometric mean, min and max of
# the per-round ratios, rounds that produced a pair. Markdown table.
lib_summary() {
    awk -F '\t' '
        NR == 1 { next }
        {
            k = $2 "\t" $3
            if (!(k in n)) { order[++m] = k; unit[k] = $4; n[k] = 0; bad[k] = 0 }
            if ($9 == "" || $9 !~ /^[0-9.eE+-]+$/ || $9 <= 0) { bad[k]++; why[k] = $9; next }
            n[k]++; lr[k] += log($9); rs[k] += $7; ss[k] += $8
            if (n[k] == 1 || $9 < lo[k]) lo[k] = $9
            if (n[k] == 1 || $9 > hi[k]) hi[k] = $9
        }
        function num(v) { return v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : sprintf("%.3g", v) }
        END {
            fmt = "| %-22s | %-12s | %-7s | %10s | %10s | %5s | %5s | %5s | %6s |\n"
            printf fmt, "test", "figure", "unit", "reference", "storbench", "ratio", "min", "max", "rounds"
            printf "|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n", "---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---:"
            for (i = 1; i <= m; i++) {
                k = order[i]; split(k, p, "\t")
                if (n[k] == 0) {
                    printf fmt, p[1], p[2], unit[k], "-", "-", "-", "-", "-", "0 (" why[k] ")"
                    continue
                }
                r = sprintf("%d", n[k]); if (bad[k]) r = r "+" bad[k] "!"
                printf fmt, p[1], p[2], unit[k], num(rs[k] / n[k]), num(ss[k] / n[k]),
                    sprintf("%.2f", exp(lr[k] / n[k])), sprintf("%.2f", lo[k]), sprintf("%.2f", hi[k]), r
            }
        }' "$1"
}
