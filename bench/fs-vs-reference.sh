#!/bin/bash
# fs-vs-reference — runs fs_mark, PostMark and dbench and the matching
# storbench workloads (fs-mark, postmark, dbench) on one target, in
# alternation, at a quick scale, and prints both figures and their ratio
# (storbench / reference) for each round and the median. Installs the
# reference tools with apt-get when they are missing (needs root).
#
#   bench/fs-vs-reference.sh [TARGET] [ROUNDS]      (defaults: /var/tmp, 3)
#   STORBENCH=path/to/storbench to use another binary.
#
# The goal is a ratio within 0.85..1.15; docs/workloads.md explains the
# differences that are inherent. Never part of `make check`.
set -eu

TARGET=${1:-/var/tmp}
ROUNDS=${2:-3}
SB=${STORBENCH:-$(cd "$(dirname "$0")/.." && pwd)/storbench}
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
ref_fsmark() {  # files per worker, threads
    mkdir -p "$WORK/fsm"
    # fs_mark writes its log (fs_log.txt) into the current directory.
    (cd "$WORK" && fs_mark -d "$WORK/fsm" -s 1048576 -n "$1" -t "$2" -S 1 -w 16384 -L 1) 2>&1 |
        awk '/Files\/sec/ { getline; print $4; exit }'
    rm -rf "$WORK/fsm"
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

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A RATIOS
pair() {  # NAME UNIT REF-COMMAND STORBENCH-COMMAND
    local name=$1 unit=$2 ref sb
    for round in $(seq 1 "$ROUNDS"); do
        ref=$(eval "$3")
        sb=$(eval "$4")
        printf '%-28s round %d  reference %10.2f  storbench %10.2f %-8s ratio %s\n' \
            "$name" "$round" "$ref" "$sb" "$unit" "$(ratio "$sb" "$ref")"
        RATIOS[$name]="${RATIOS[$name]:-} $(ratio "$sb" "$ref")"
    done
}

echo "target: $TARGET ($(df -T "$TARGET" | awk 'NR == 2 { print $2 }')), rounds: $ROUNDS, $(nproc) CPUs"
pair "fs-mark 100 x 1MB" "Files/s" "ref_fsmark 100 1" \
    "storbench fs-mark test=custom,files=100,size=1M"
pair "fs-mark 4 x 100 x 1MB" "Files/s" "ref_fsmark 100 4" \
    "storbench fs-mark test=custom,files=100,size=1M,threads=4"
pair "postmark 100000 tx" "TPS" "ref_postmark 100000" \
    "storbench postmark transactions=100000"
pair "dbench client.txt 6 clients" "MB/s" "ref_dbench 6 8" \
    "storbench dbench clients=6,time=8,warmup=2,loadfile=$LOADFILE"

echo
for k in "fs-mark 100 x 1MB" "fs-mark 4 x 100 x 1MB" "postmark 100000 tx" "dbench client.txt 6 clients"; do
    printf '%-28s median ratio %s\n' "$k" "$(echo "${RATIOS[$k]}" | tr ' ' '\n' | grep . | median)"
done
