#!/bin/bash
# dbench-vs-reference — dbench 4.0 with its client.txt against storbench's
# default dbench test on one target: same clients, same warm-up and measured
# time, alternating which tool goes first, several rounds. Prints each round
# (both figures in MB/s, their ratio storbench / dbench, and each tool's CPU
# seconds per GB moved) and the geometric mean, min and max of the ratios.
#
#   bench/dbench-vs-reference.sh [TARGET] [ROUNDS] [SECONDS] [CLIENTS]
#       defaults: /var/tmp, 3, 15, 6
#   STORBENCH=path/to/storbench   another binary
#   SB_OPTS="-o loadfile=builtin"  extra storbench options (a different stream)
#
# dbench -t T warms up for T/5 seconds and then measures T seconds (dbench 4.0
# has no --warmup option), so storbench runs time=T,warmup=T/5. storbench's
# runner syncs and drops the page cache before its run (as root); this script
# does the same before dbench's, so neither inherits the other's dirty pages.
# Never part of `make check`.
set -eu

TARGET=${1:-/var/tmp}
ROUNDS=${2:-3}
SECS=${3:-15}
CLIENTS=${4:-6}
SB=${STORBENCH:-$(cd "$(dirname "$0")/.." && pwd)/storbench}
LOADFILE=/usr/share/dbench/client.txt
WARMUP=$((SECS / 5))

for t in dbench jq; do
    command -v $t >/dev/null || { echo "dbench-vs-reference: $t missing (apt-get install $t)" >&2; exit 1; }
done
[ -x "$SB" ] || { echo "dbench-vs-reference: no storbench binary at $SB (run make)" >&2; exit 1; }
[ -r "$LOADFILE" ] || { echo "dbench-vs-reference: $LOADFILE missing (package dbench)" >&2; exit 1; }

WORK=$(mktemp -d "$TARGET/dbench-vs-ref.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

drop_caches() {
    sync
    [ "$(id -u)" = 0 ] && echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
}

# Each prints "MBPS CPU_SECONDS" (CPU = user + system of the tool and its children),
# or "fail" with the tool's last lines on stderr. The caller reads the line through a
# process substitution and goes on at once: all clean-up happens before the print.
ref() {
    local res=fail
    mkdir -p "$WORK/db"
    drop_caches
    if /usr/bin/time -f "%U %S" -o "$WORK/time" \
        dbench -D "$WORK/db" -t "$SECS" -c "$LOADFILE" "$CLIENTS" >"$WORK/out" 2>&1 &&
        grep -q '^Throughput' "$WORK/out"; then
        res="$(awk '/^Throughput/ { v = $2 } END { print v }' "$WORK/out") $(awk 'END { print $1 + $2 }' "$WORK/time")"
    else
        echo "dbench failed:" >&2; tail -3 "$WORK/out" >&2
    fi
    rm -rf "$WORK/db"
    echo "$res"
}
sb() {
    rm -f "$WORK/r.json"
    # shellcheck disable=SC2086
    if /usr/bin/time -f "%U %S" -o "$WORK/time" \
        "$SB" run dbench --target "$WORK" -o clients="$CLIENTS" -o time="$SECS" -o warmup="$WARMUP" \
        ${SB_OPTS:-} --result "$WORK/r.json" -i bench -n 1 --exact-runs >/dev/null 2>"$WORK/err"; then
        jq -r '.results[0].entries[0].mean' "$WORK/r.json" | tr '\n' ' '
        awk 'END { print $1 + $2 }' "$WORK/time"
    else
        echo "storbench failed:" >&2; cat "$WORK/err" >&2; echo fail
    fi
}

# CPU seconds per GB moved over warm-up + measured time (the figure's rate covers both).
per_gb() { awk -v mb="$1" -v cpu="$2" -v t="$((SECS + WARMUP))" 'BEGIN { printf "%.2f", cpu / (mb * t / 1000) }'; }

echo "target: $TARGET ($(df -T "$TARGET" | awk 'NR == 2 { print $2 }')), $CLIENTS clients," \
    "${SECS} s after ${WARMUP} s warm-up, rounds: $ROUNDS, $(nproc) CPUs${SB_OPTS:+, storbench $SB_OPTS}"
ratios=""
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then
        first=dbench; read -r rv rc < <(ref) || true; read -r sv sc < <(sb) || true
    else
        first=storbench; read -r sv sc < <(sb) || true; read -r rv rc < <(ref) || true
    fi
    if [ "$rv" = fail ] || [ "$sv" = fail ]; then
        echo "round $round: no ratio"
        continue
    fi
    r=$(awk -v a="$sv" -v b="$rv" 'BEGIN { printf "%.3f", a / b }')
    ratios="$ratios $r"
    printf 'round %d (%s first)  dbench %8.2f MB/s (%s CPU s/GB)  storbench %8.2f MB/s (%s CPU s/GB)  ratio %s\n' \
        "$round" "$first" "$rv" "$(per_gb "$rv" "$rc")" "$sv" "$(per_gb "$sv" "$sc")" "$r"
done
echo "$ratios" | tr ' ' '\n' | grep . | awk '
    { l += log($1); n++; if (n == 1 || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 }
    END { printf "storbench / dbench: geomean %.3f  min %.3f  max %.3f  (%d rounds)\n", exp(l / n), lo, hi, n }'
