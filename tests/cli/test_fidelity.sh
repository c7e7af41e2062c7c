#!/bin/bash
# CLI tests of bench/fidelity.sh (the storbench-vs-reference-tools table):
# bad arguments give one line and exit 2, the table's arithmetic (geometric
# mean, min, max, failed and skipped rounds) from a fixed TSV, one tiny real
# pair, and an interrupted run that leaves no directory and no process.
# The measured figures themselves are never checked (they are timings).
. "$(dirname "$0")/lib.sh"
FID="$SRC/bench/fidelity.sh"
export STORBENCH="$SB"
# No figure is checked, so nothing needs bench/lib.sh's preparation of a measuring
# machine: PREFAULT=0, no write of all free memory to /dev/shm (a minute or more, and on
# every run while page reporting can be held off); PAGE_REPORTING=keep, no change to the
# kernel's page_reporting_order
export PREFAULT=0 PAGE_REPORTING=keep
mkdir -p "$T/target"

# ---- bad arguments: one line, exit 2 ----
check_exit "no target" 2 "$FID"
check_one_line "no target: one line" "TARGET"
check_exit "missing target" 2 "$FID" "$T/nope"
check_one_line "missing target: one line" "not a directory"
check_exit "bad rounds" 2 "$FID" "$T/target" x
check_one_line "bad rounds: one line" "ROUNDS"
check_exit "zero rounds" 2 "$FID" "$T/target" 0
check_exit "unknown test" 2 "$FID" --only fio,nosuch "$T/target" 1
check_one_line "unknown test: one line" "nosuch"
check_exit "unknown option" 2 "$FID" --frobnicate "$T/target"
check_exit "tsv in a missing directory" 2 "$FID" --tsv "$T/nope/x.tsv" "$T/target" 1
check_exit "bad environment number" 2 env DBENCH_TIME=abc "$FID" "$T/target" 1
check_exit "unreadable table" 2 "$FID" --table "$T/nope.tsv"
check "bad arguments leave nothing" test "$(ls -A "$T/target" | wc -l)" -eq 0

# ---- the table from a saved TSV ----
printf 'round\ttest\tfigure\tunit\tbetter\tfirst\treference\tstorbench\tratio\n' >"$T/p.tsv"
printf '1\tfio-write\tiops\tIOPS\thigher\tref\t100\t200\t2.0000\n' >>"$T/p.tsv"
printf '2\tfio-write\tiops\tIOPS\thigher\tsb\t200\t100\t0.5000\n' >>"$T/p.tsv"
printf '3\tfio-write\tiops\tIOPS\thigher\tref\t100\t-\tfailed-storbench\n' >>"$T/p.tsv"
printf -- '-\tpostmark\tseconds\ts\tlower\t-\t-\t-\tskipped\n' >>"$T/p.tsv"
check_exit "table from tsv" 0 "$FID" --table "$T/p.tsv"
row=$(grep '^| fio-write' "$T/out" | tr -s ' ')
check "geometric mean, min, max, rounds with a failure" \
    test "$row" = "| fio-write | iops | IOPS | 150 | 150 | 1.00 | 0.50 | 2.00 | 2+1! |"
check "skipped pair is a row" grep -q '^| postmark .* 0 (skipped) |$' "$T/out"

# ---- one tiny real pair, and what it leaves ----
if command -v sqlite3 >/dev/null && command -v jq >/dev/null; then
    check_exit "sqlite pair, 2 rounds" 0 env SQLITE_COUNT=20 "$FID" --only sqlite --tsv "$T/s.tsv" "$T/target" 2
    # Three figures a round: seconds, cpu-seconds, minus-runq.
    check "tsv: header and three lines per round" test "$(wc -l <"$T/s.tsv")" -eq 7
    check "tsv: alternating order" test "$(awk -F '\t' 'NR > 1 { print $1 $6 }' "$T/s.tsv" | sort -u | tr '\n' ' ')" = "1ref 2sb "
    # The seconds ratios are numbers; the CPU figures of a 20-insert run can be too short
    # for the 50 ms sampler to see (a ratio of 0 CPU seconds is not a number): present.
    check "tsv: numeric ratios" test "$(awk -F '\t' 'NR > 1 && $3 == "seconds" && $9 + 0 > 0' "$T/s.tsv" | wc -l)" -eq 2
    check "table printed" grep -q '^| sqlite .* seconds .* 2 |$' "$T/out"
    # A CPU row each round ("-" when the run ended before the sampler looked).
    check "cpu-seconds of both sides" test "$(awk -F '\t' '$3 == "cpu-seconds"' "$T/s.tsv" | wc -l)" -eq 2
    check "minus-runq row" grep -q '^| sqlite .* minus-runq .* 2 |$' "$T/out"
    check "run leaves nothing in the target" test "$(ls -A "$T/target" | wc -l)" -eq 0
else
    ok "sqlite pair skipped (no sqlite3 or jq)"
fi

# ---- interrupted: exit 130, nothing left behind ----
if command -v dbench >/dev/null && [ -r /usr/share/dbench/client.txt ] && command -v jq >/dev/null; then
    DBENCH_TIME=30 "$FID" --only dbench-client "$T/target" 1 >"$T/out" 2>"$T/err" &
    pid=$!
    for _ in $(seq 1 50); do pgrep -f "dbench -D $T/target" >/dev/null && break; sleep 0.1; done
    sleep 0.5
    kill -TERM "$pid"
    wait "$pid"
    check "interrupted run exits 130" test $? -eq 130
    sleep 0.5
    check "no dbench left running" test "$(pgrep -fc "dbench -D $T/target")" -eq 0
    check "interrupted run leaves nothing in the target" test "$(ls -A "$T/target" | wc -l)" -eq 0
else
    ok "interrupt test skipped (no dbench)"
fi
finish
