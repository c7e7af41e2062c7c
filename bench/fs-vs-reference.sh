#!/bin/bash
# fs-vs-reference — runs fs_mark, PostMark and dbench and the matching
# storbench workloads (fs-mark, postmark, dbench) on one target with the
# parameters of issue 10 (fs_mark 1,000 x 1 MiB, 4 workers x 250, 400 files
# with -D 32; PostMark 25,000 transactions; dbench client.txt 6 clients),
# alternating which tool goes first in each round, and prints both figures
# and their ratio (storbench / reference) for each round, then the geometric
# mean, min and max of the ratios. Installs the reference tools with apt-get
# when they are missing (needs root).
#
#   bench/fs-vs-reference.sh [TARGET] [ROUNDS]      (defaults: /var/tmp, 3)
#   STORBENCH=path/to/storbench to use another binary.
#   ONLY="fsmark postmark dbench" (any of them) to run just those pairs.
#
# The goal is a ratio within 0.9..1.1; docs/workloads.md explains the
# differences that are inherent. Never part of `make check`.
set -eu

TARGET=${1:-/var/tmp}
ROUNDS=${2:-3}
SB=${STORBENCH:-$(cd "$(dirname "$0")/.." && pwd)/storbench}
ONLY=${ONLY:-fsmark postmark dbench}
LOADFILE=/usr/share/dbench/client.txt

need=""
command -v fs_mark >/dev/null || need="$need fsmark"
command -v postmark >/dev/null || need="$need postmark"
command -v dbench >/dev/null || need="$need dbench"
command -v jq >/dev/null || need="$need jq"
if [ -n "$need" ]; then
    echo "installing:$need"
    apt-get install -y --no-install-recommends $need >/dev/null
fi
[ -x "$SB" ] || { echo "fs-vs-reference: no storbench binary at $SB (run make)" >&2; exit 1; }
[ -r "$LOADFILE" ] || { echo "fs-vs-reference: $LOADFILE missing (dbench package)" >&2; exit 1; }

WORK=$(mktemp -d "$TARGET/fs-vs-ref.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# storbench TEST OPTIONS [FIGURE]: one run; prints the headline (or a secondary figure).
storbench() {
    local r="$WORK/r.json"
    rm -f "$r"
    "$SB" run "$1:$2" --target "$WORK" --result "$r" -i bench -n 1 --exact-runs --no-drop-caches \
        >/dev/null
    if [ -n "${3:-}" ]; then
        jq -r --arg n "$3" '[.results[0].entries[0].secondary[] | select(.name == $n) | .value][0]' "$r"
    else
        jq -r '.results[0].entries[0].mean' "$r"
    fi
}

# ---- the reference tools, each printing its headline figure ----
ref_fsmark() {  # files per worker, threads [more fs_mark options]
    local n=$1 t=$2
    shift 2
    mkdir -p "$WORK/fsm"
    # As the test profile runs it: no -L or -k, so that each fs_mark process unlinks its
    # own files after its timed loop. fs_mark writes its log (fs_log.txt) into the
    # current directory.
    (cd "$WORK" && fs_mark -d "$WORK/fsm" -s 1048576 -n "$n" -t "$t" -S 1 -w 16384 "$@") 2>&1 |
        awk '/Files\/sec/ { getline; print $4; exit }'
    rm -rf "$WORK/fsm" "$WORK/fs_log.txt"
}
ref_postmark() {  # transactions
    mkdir -p "$WORK/pm"
    printf '%s\n' "set location $WORK/pm" "set number 500" "set size 5120 524288" \
        "set transactions $1" "set read 512" "set write 512" "set buffering true" \
        "set bias read 5" "set bias create 5" "set seed 42" "run" "quit" |
        (cd "$WORK/pm" && postmark) 2>&1 |
        sed -n 's/.*seconds of transactions (\([0-9.]*\) per second).*/\1/p'
    rm -rf "$WORK/pm"
}
ref_dbench() {  # clients, seconds
    mkdir -p "$WORK/db"
    dbench -D "$WORK/db" -t "$2" -c "$LOADFILE" "$1" 2>&1 | awk '/^Throughput/ { print $2 }'
    rm -rf "$WORK/db"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a > 0) printf "%.3f", a / b; else print "n/a" }'; }
# geometric mean, min and max of a list of ratios
summary() { tr ' ' '\n' | grep -E '^[0-9.]+$' | awk '{ l += log($1); n++; if (n == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { if (n) printf "geomean %.3f  min %.3f  max %.3f  (%d rounds)", exp(l / n), lo, hi, n; else print "no figures" }'; }

declare -A RATIOS
NAMES=()
pair() {  # NAME UNIT REF-COMMAND STORBENCH-COMMAND
    local name=$1 unit=$2 ref sb
    NAMES+=("$name")
    for round in $(seq 1 "$ROUNDS"); do
        # Alternate which tool goes first: the first of a pair often finds the target
        # in a better state (writeback done, discards settled).
        if [ $((round % 2)) = 1 ]; then
            ref=$(eval "$3"); sb=$(eval "$4"); first=reference
        else
            sb=$(eval "$4"); ref=$(eval "$3"); first=storbench
        fi
        printf '%-30s round %d (%-9s first)  reference %10.2f  storbench %10.2f %-8s ratio %s\n' \
            "$name" "$round" "$first" "${ref:-0}" "${sb:-0}" "$unit" "$(ratio "$sb" "$ref")"
        RATIOS[$name]="${RATIOS[$name]:-} $(ratio "$sb" "$ref")"
    done
}
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

echo "target: $TARGET ($(df -T "$TARGET" | awk 'NR == 2 { print $2 }')), rounds: $ROUNDS, $(nproc) CPUs"
if want fsmark; then
    pair "fs-mark 1000 x 1MiB" "Files/s" "ref_fsmark 1000 1" \
        "storbench fs-mark test=1000-files"
    pair "fs-mark 4 x 250 x 1MiB" "Files/s" "ref_fsmark 250 4" \
        "storbench fs-mark test=custom,files=250,size=1M,threads=4"
    pair "fs-mark 400 x 1MiB, 32 dirs" "Files/s" "ref_fsmark 400 1 -D 32" \
        "storbench fs-mark test=custom,files=400,size=1M,dirs=32"
fi
if want postmark; then
    pair "postmark 25000 tx" "TPS" "ref_postmark 25000" \
        "storbench postmark transactions=25000"
fi
if want dbench; then
    # dbench -t 8 warms up 8/5 = 1 s; storbench's default stream is client.txt.
    pair "dbench client.txt 6 clients" "MB/s" "ref_dbench 6 8" \
        "storbench dbench clients=6,time=8,warmup=1"
fi

echo
for k in "${NAMES[@]}"; do
    printf '%-30s ratio storbench/reference: %s\n' "$k" "$(echo "${RATIOS[$k]}" | summary)"
done
