#!/bin/bash
# sweep-vs-fio — a `storbench sweep` over iodepth against fio at the same points, on the same
# kind of target (a RAM-backed directory), the same job (4k random reads through io_uring,
# buffered: tmpfs has no O_DIRECT), each point alternating which tool goes first, ROUNDS
# times. Each sweep cell is its own `storbench sweep --iodepth N` into one result file per
# round (the sweep resumes: the file gathers the points), so the order can alternate point
# by point; fio lays its own file out in DIR, as the sweep's fio test lays out its own.
# Prints per point each tool's IOPS per round, and the geometric mean, min and max of the
# ratios storbench/fio. Run by hand on a quiet machine, never from `make check`:
#
#   bench/sweep-vs-fio.sh [DIR] [ROUNDS]        (default /dev/shm 3)
#   env: SB=./storbench QDS="1 2 4 8 16 32 64 128 256" SIZE=256m RUNTIME=3 RAMP=1 LOCK=/work/bench.lock
set -eu
DIR=${1:-/dev/shm}
ROUNDS=${2:-3}
SB=${SB:-./storbench}
QDS=${QDS:-1 2 4 8 16 32 64 128 256}
SIZE=${SIZE:-256m}
RUNTIME=${RUNTIME:-3}
RAMP=${RAMP:-1}
LOCK=${LOCK-/work/bench.lock}
[ -e "$LOCK" ] || LOCK=
command -v fio >/dev/null && command -v jq >/dev/null || { echo "sweep-vs-fio: needs fio and jq" >&2; exit 1; }
[ -x "$SB" ] || { echo "sweep-vs-fio: $SB not built (make)" >&2; exit 1; }
W=$(mktemp -d "$DIR/sweep-vs-fio.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
locked() { if [ -n "$LOCK" ]; then flock "$LOCK" "$@"; else "$@"; fi; }

sb_point() { # ROUND QD: one sweep cell into the round's file
    locked "$SB" sweep -Q --iodepth "$2" --rw randread --bs 4k --ioengine io_uring --direct 0 \
        --size "$SIZE" --runtime "$RUNTIME" --ramp_time "$RAMP" --startdelay 0 --runs 1 --exact-runs \
        --no-drop-caches -t "$W" -r "$W/sb.$1.json" -i sb >/dev/null
}
fio_point() { # QD: prints fio's IOPS
    mkdir -p "$W/fio"
    locked fio --name=j --directory="$W/fio" --rw=randread --bs=4k --ioengine=io_uring --iodepth="$1" \
        --direct=0 --size="$SIZE" --runtime="$RUNTIME" --ramp_time="$RAMP" --time_based \
        --output-format=json 2>/dev/null | sed -n '/^{/,$p' | jq -r '.jobs[0].read.iops'
    rm -rf "$W/fio"
}
sb_iops() { # ROUND QD
    jq -r --arg q "$2" '.results[] | select(.options.iodepth == $q) | .entries[0].secondary[]
        | select(.name == "iops") | .value' "$W/sb.$1.json"
}

declare -A FIO
for r in $(seq "$ROUNDS"); do
    k=0
    for q in $QDS; do
        if [ $(((r + k) % 2)) = 0 ]; then
            sb_point "$r" "$q"; FIO[$r.$q]=$(fio_point "$q")
        else
            FIO[$r.$q]=$(fio_point "$q"); sb_point "$r" "$q"
        fi
        k=$((k + 1))
    done
done
printf '%-8s %-40s %-40s %s\n' iodepth "storbench IOPS (rounds)" "fio IOPS (rounds)" "ratio: geomean [min, max]"
for q in $QDS; do
    s="" f="" ratios=""
    for r in $(seq "$ROUNDS"); do
        a=$(sb_iops "$r" "$q"); b=${FIO[$r.$q]}
        s="$s $(printf '%.0f' "$a")"; f="$f $(printf '%.0f' "$b")"
        ratios="$ratios $(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
    done
    stat=$(echo "$ratios" | tr ' ' '\n' | awk 'NF { l += log($1); n++; if (!mn || $1 < mn) mn = $1; if ($1 > mx) mx = $1 }
        END { printf "%.3f [%.3f, %.3f]", exp(l / n), mn, mx }')
    printf '%-8s %-40s %-40s %s\n' "$q" "$s" "$f" "$stat"
done
