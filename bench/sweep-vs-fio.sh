#!/bin/bash
# sweep-vs-fio — a `storbench sweep` over iodepth against fio at the same points, on the same
# target, the same job (4k random reads through io_uring; buffered by default: on a RAM-backed
# directory, tmpfs, there is no O_DIRECT), each point alternating which tool goes first,
# ROUNDS times. Each sweep cell is its own `storbench sweep --iodepth N` into one result file
# per round (the sweep resumes: the file gathers the points), so the order can alternate
# point by point; fio lays its own file out in DIR, as the sweep's fio test lays out its own.
# Run by hand, never from `make check`:
#
#   bench/sweep-vs-fio.sh [DIR] [ROUNDS]        (default /dev/shm 3)
#   env: SB=./storbench QDS="1 2 4 8 16 32 64 128 256" SIZE=256m RUNTIME=5 RAMP=1 BS=4k
#        DIRECT=0 (1: O_DIRECT for both, for a disk-backed DIR such as /var/tmp)
#        PIN= (a prefix for both tools, e.g. "taskset -c 1": the io-wq workers follow it)
#        LOCK=/work/bench.lock (held for each pair, so the two runs of a pair see the same
#        machine and other benchmarks interleave between pairs; LOCK= for none, and
#        under an outer `flock /work/bench.lock`, whose hold a second flock would wait for)
#
# Prints per point each tool's IOPS per round, the geometric mean, min and max of the
# ratios storbench/fio, each tool's own spread (its max / min over the rounds), each tool's
# median CPU per I/O (user + system of the whole process, io-wq workers included, over its
# I/Os after the ramp: the layout of the file and the ramp are in it, for both), and the
# 1-minute load average when the point's last pair ended.
#
# Why the figures move on tmpfs: a buffered io_uring read of tmpfs cannot be done without
# blocking, so the kernel hands each one to an io-wq worker thread (one per ring while the
# reads never sleep) and hands the completion back; at iodepth 1-8 the IOPS are the rate of
# these two wake-ups, which the scheduler sets (which CPU, who preempts whom, what else
# runs), not the tool; at high iodepth the worker copies back to back and the IOPS are each
# tool's CPU cost per I/O. On a disk-backed DIR with DIRECT=1 the device sets them.
set -eu
DIR=${1:-/dev/shm}
ROUNDS=${2:-3}
SB=${SB:-./storbench}
QDS=${QDS:-1 2 4 8 16 32 64 128 256}
SIZE=${SIZE:-256m}
RUNTIME=${RUNTIME:-5}
RAMP=${RAMP:-1}
BS=${BS:-4k}
DIRECT=${DIRECT:-0}
PIN=${PIN:-}
LOCK=${LOCK-/work/bench.lock}
[ -e "$LOCK" ] || LOCK=
command -v fio >/dev/null && command -v jq >/dev/null || { echo "sweep-vs-fio: needs fio and jq" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "sweep-vs-fio: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
[ -x "$SB" ] || { echo "sweep-vs-fio: $SB not built (make)" >&2; exit 1; }
W=$(mktemp -d "$DIR/sweep-vs-fio.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM

sb_point() { # ROUND QD: one sweep cell into the round's file; its CPU seconds into sb.cpu.ROUND.QD
    # shellcheck disable=SC2086 # PIN is a command prefix, split on purpose
    /usr/bin/time -f '%U %S' -o "$W/sb.cpu.$1.$2" $PIN "$SB" sweep -Q --iodepth "$2" --rw randread --bs "$BS" \
        --ioengine io_uring --direct "$DIRECT" --size "$SIZE" --runtime "$RUNTIME" --ramp_time "$RAMP" \
        --startdelay 0 --runs 1 --exact-runs --no-drop-caches -t "$W" -r "$W/sb.$1.json" -i sb >/dev/null
}
fio_point() { # ROUND QD: fio's "IOPS IOS" into fio.ROUND.QD, its CPU seconds into fio.cpu.ROUND.QD
    mkdir -p "$W/fio"
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "$W/fio.cpu.$1.$2" $PIN fio --name=j --directory="$W/fio" --rw=randread \
        --bs="$BS" --ioengine=io_uring --iodepth="$2" --direct="$DIRECT" --size="$SIZE" --runtime="$RUNTIME" \
        --ramp_time="$RAMP" --time_based --output-format=json 2>/dev/null |
        sed -n '/^{/,$p' | jq -r '"\(.jobs[0].read.iops) \(.jobs[0].read.total_ios)"' >"$W/fio.$1.$2"
    rm -rf "$W/fio"
}
pair() { # ROUND QD SB_FIRST
    if [ "$3" = 1 ]; then sb_point "$1" "$2"; fio_point "$1" "$2"; else fio_point "$1" "$2"; sb_point "$1" "$2"; fi
    cut -d' ' -f1 /proc/loadavg >"$W/load.$2"
}
locked_pair() {
    if [ -n "$LOCK" ]; then (flock 9 && pair "$@") 9>>"$LOCK"; else pair "$@"; fi
}
sb_iops() { # ROUND QD: "IOPS IOS"
    jq -r --arg q "$2" '.results[] | select(.options.iodepth == $q) | .entries[0].secondary as $s
        | "\($s[] | select(.name == "iops") | .value) \(($s[] | select(.name == "bytes") | .value) / 4096)"' "$W/sb.$1.json"
}
cpu_ns() { # CPU_FILE IOS: whole-process CPU ns per I/O
    awk -v n="$2" '{ printf "%.0f", (n > 0) ? ($1 + $2) * 1e9 / n : 0 }' "$1"
}
median() { sort -g | awk '{ a[NR] = $1 } END { printf "%.0f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
spread() { tr ' ' '\n' | awk 'NF { if (!mn || $1 < mn) mn = $1; if ($1 > mx) mx = $1 } END { printf "%.2f", mx / mn }'; }

echo "sweep-vs-fio: $("$SB" --version 2>/dev/null | head -1), $(fio --version); kernel $(uname -r); $(nproc) CPUs;" \
    "DIR=$DIR DIRECT=$DIRECT SIZE=$SIZE RUNTIME=$RUNTIME RAMP=$RAMP BS=$BS ROUNDS=$ROUNDS PIN='$PIN'; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$ROUNDS"); do
    k=0
    for q in $QDS; do
        locked_pair "$r" "$q" $(((r + k) % 2 == 0 ? 1 : 0))
        k=$((k + 1))
    done
done
printf '%-7s %-26s %-26s %-22s %-11s %-14s %s\n' iodepth "storbench IOPS (rounds)" "fio IOPS (rounds)" \
    "ratio: geomean [min,max]" "spread s/f" "cpu ns/io s/f" load
for q in $QDS; do
    s="" f="" ratios="" scpu="" fcpu=""
    for r in $(seq "$ROUNDS"); do
        read -r a an < <(sb_iops "$r" "$q")
        read -r b bn <"$W/fio.$r.$q"
        s="$s $(printf '%.0f' "$a")"
        f="$f $(printf '%.0f' "$b")"
        ratios="$ratios $(awk -v a="$a" -v b="$b" 'BEGIN { print a / b }')"
        scpu="$scpu $(cpu_ns "$W/sb.cpu.$r.$q" "$an")"
        fcpu="$fcpu $(cpu_ns "$W/fio.cpu.$r.$q" "$bn")"
    done
    stat=$(echo "$ratios" | tr ' ' '\n' | awk 'NF { l += log($1); n++; if (!mn || $1 < mn) mn = $1; if ($1 > mx) mx = $1 }
        END { printf "%.3f [%.3f, %.3f]", exp(l / n), mn, mx }')
    cpu="$(echo "$scpu" | tr ' ' '\n' | grep . | median)/$(echo "$fcpu" | tr ' ' '\n' | grep . | median)"
    printf '%-7s %-26s %-26s %-22s %-11s %-14s %s\n' "$q" "${s# }" "${f# }" "$stat" \
        "$(echo "$s" | spread)/$(echo "$f" | spread)" "$cpu" "$(cat "$W/load.$q")"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
