#!/bin/bash
# engine-vs-fio — runs the same I/O jobs with fio and with `storbench io`, in
# alternation, on a RAM-backed file (/dev/shm) and on a disk-backed file, and
# prints both IOPS figures and the ratio storbench/fio for each job, and the
# CPU time (user + system, whole process) each tool spent per I/O, which is
# the cost per I/O itself and less disturbed by other load than IOPS.
#
# Goal: ratio >= 1.0 on RAM-backed jobs (storbench costs no more per I/O than
# fio) and 0.9 .. 1.1 on disk-backed jobs (it measures the same thing).
# Run by hand, never from `make check`. Environment:
#   SB=./storbench  RUNTIME=3 (s per job run)  ROUNDS=3 (runs per tool, alternating)
#   RAM_DIR=/dev/shm  DISK_DIR=/var/tmp  SIZE=512m (file size)
# Columns: median IOPS of each tool, storbench/fio; median CPU microseconds per
# I/O of each tool (user + system of the whole process: the tool's own cost
# plus the kernel's work for the I/O), and fio/storbench (>= 1: storbench
# costs no more per I/O).
#
# Fidelity mode: bench/engine-vs-fio.sh --fidelity TARGET_DIR [ROUNDS]
# runs the four fio jobs of the fidelity issue (4k, 256 MiB file, direct,
# ramp 2 s, runtime 10 s, time based): randwrite posixaio QD64, write
# posixaio QD64, randread io_uring QD32, randread libaio QD32. Every run of
# either tool starts without the file, so each lays it out as it does by
# default (as `storbench run fio` does in its fresh run directory); the
# order alternates each round. Prints each round's IOPS ratio storbench/fio
# and, per job, the geometric mean, min and max of the ratios and each
# tool's CPU microseconds per I/O (whole process: for read jobs it includes
# laying the file out). Environment: SIZE=256m RAMP=2 RUNTIME=10 SETTLE=2
# ONLY=REGEX (only the jobs whose name matches), VERBOSE=1 (each run's IOPS).
set -eu
SB=${SB:-./storbench}
if [ "${1:-}" = --fidelity ]; then
    FIDELITY_DIR=${2:?usage: engine-vs-fio.sh --fidelity TARGET_DIR [ROUNDS]}
    ROUNDS=${3:-${ROUNDS:-3}}
    RUNTIME=${RUNTIME:-10}
    SIZE=${SIZE:-256m}
fi
RUNTIME=${RUNTIME:-3}
ROUNDS=${ROUNDS:-3}
RAM_DIR=${RAM_DIR:-/dev/shm}
DISK_DIR=${DISK_DIR:-/var/tmp}
SIZE=${SIZE:-512m}

if ! command -v fio >/dev/null; then
    echo "fio is missing; installing it (apt-get install fio)" >&2
    apt-get install -y fio >/dev/null
fi
command -v jq >/dev/null || apt-get install -y jq >/dev/null
[ -x "$SB" ] || { echo "engine-vs-fio: $SB not built (make)" >&2; exit 1; }

# name | fio/storbench flags
JOBS=(
    "4k randread psync QD1|--rw=randread --bs=4k --ioengine=psync --iodepth=1"
    "4k randread io_uring QD32|--rw=randread --bs=4k --ioengine=io_uring --iodepth=32"
    "4k randwrite posixaio QD64 direct|--rw=randwrite --bs=4k --ioengine=posixaio --iodepth=64 --direct=1"
    "128k read libaio QD8 direct|--rw=read --bs=128k --ioengine=libaio --iodepth=8 --direct=1"
)

files=()
cleanup() { rm -f "${files[@]}"; }
trap cleanup EXIT

CPU=$(mktemp)
files+=("$CPU")

# Each prints "IOPS CPU_US_PER_IO" (median over ROUNDS later).
run_fio() { # file flags...
    local f=$1; shift
    /usr/bin/time -f '%U %S' -o "$CPU" fio --name=bench --filename="$f" --size="$SIZE" \
        --runtime="$RUNTIME" --time_based --invalidate=1 --output-format=json "$@" 2>/dev/null |
        jq -r '[.jobs[0].read.iops + .jobs[0].write.iops, .jobs[0].read.total_ios + .jobs[0].write.total_ios] | @tsv' |
        { read -r iops ios; read -r u s <"$CPU"; awk -v i="$iops" -v n="$ios" -v u="$u" -v s="$s" \
            'BEGIN {printf "%f %f\n", i, (n > 0) ? (u + s) * 1e6 / n : 0}'; }
}

run_sb() { # file flags...
    local f=$1; shift
    /usr/bin/time -f '%U %S' -o "$CPU" "$SB" io --filename="$f" --size="$SIZE" --runtime="$RUNTIME" \
        --time_based --invalidate=1 --output-format=json "$@" |
        jq -r '[.total.iops, .total.ios] | @tsv' |
        { read -r iops ios; read -r u s <"$CPU"; awk -v i="$iops" -v n="$ios" -v u="$u" -v s="$s" \
            'BEGIN {printf "%f %f\n", i, (n > 0) ? (u + s) * 1e6 / n : 0}'; }
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

if [ -n "${FIDELITY_DIR:-}" ]; then
    RAMP=${RAMP:-2}
    FJOBS=(
        "randwrite posixaio QD64|--rw=randwrite --ioengine=posixaio --iodepth=64"
        "write posixaio QD64|--rw=write --ioengine=posixaio --iodepth=64"
        "randread io_uring QD32|--rw=randread --ioengine=io_uring --iodepth=32"
        "randread libaio QD32|--rw=randread --ioengine=libaio --iodepth=32"
    )
    f="$FIDELITY_DIR/engine-vs-fio.$$"
    files+=("$f")
    common=(--bs=4k --direct=1 --ramp_time="$RAMP")
    fresh() { rm -f "$f"; sync -f "$FIDELITY_DIR"; sleep "${SETTLE:-2}"; }
    echo "target $FIDELITY_DIR ($(stat -f -c %T "$FIDELITY_DIR")), $ROUNDS rounds, size $SIZE, ramp $RAMP s, runtime $RUNTIME s"
    printf '%-24s %7s %7s %7s  %s\n' job geomean min max 'fio_us/io sb_us/io | ratio per round'
    for j in "${FJOBS[@]}"; do
        name=${j%%|*}
        [[ $name =~ ${ONLY:-.} ]] || continue
        read -r -a flags <<<"${j#*|}"
        ratios=() fcs=() scs=()
        for ((r = 0; r < ROUNDS; r++)); do
            # A fresh file for every run: each tool lays it out its own way. The
            # previous file is removed and synced first, so that the discard of
            # its blocks (ext4 -o discard, btrfs discard=async) is not timed.
            if ((r % 2 == 0)); then
                fresh; fr=$(run_fio "$f" "${common[@]}" "${flags[@]}")
                fresh; sr=$(run_sb "$f" "${common[@]}" "${flags[@]}")
            else
                fresh; sr=$(run_sb "$f" "${common[@]}" "${flags[@]}")
                fresh; fr=$(run_fio "$f" "${common[@]}" "${flags[@]}")
            fi
            rm -f "$f"
            ratios+=("$(awk -v s="${sr% *}" -v f="${fr% *}" 'BEGIN {printf "%.3f", (f > 0) ? s / f : 0}')")
            fcs+=("${fr#* }") scs+=("${sr#* }")
            [ -n "${VERBOSE:-}" ] && echo "    round $r: fio ${fr% *} IOPS, storbench ${sr% *} IOPS" >&2
        done
        printf '%-24s %s  %s %s | %s\n' "$name" \
            "$(printf '%s\n' "${ratios[@]}" | awk '{l += log($1); if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1}
                END {printf "%7.3f %7.3f %7.3f", exp(l / NR), lo, hi}')" \
            "$(printf '%s\n' "${fcs[@]}" | median | xargs printf '%9.2f')" \
            "$(printf '%s\n' "${scs[@]}" | median | xargs printf '%8.2f')" "${ratios[*]}"
    done
    exit 0
fi

printf '%-6s %-34s %10s %10s %6s %9s %9s %6s\n' target job fio_iops sb_iops ratio fio_us/io sb_us/io ratio
for where in ram disk; do
    dir=$RAM_DIR; [ "$where" = disk ] && dir=$DISK_DIR
    f="$dir/engine-vs-fio.$$"
    files+=("$f")
    # One layout for both tools: the same data, the same blocks.
    "$SB" io --rw=write --bs=1m --size="$SIZE" --filename="$f" --end_fsync >/dev/null
    for j in "${JOBS[@]}"; do
        name=${j%%|*}
        read -r -a flags <<<"${j#*|}"
        fres=() sres=()
        for ((r = 0; r < ROUNDS; r++)); do
            # alternate which tool goes first, so that drift hits both
            if ((r % 2 == 0)); then
                fres+=("$(run_fio "$f" "${flags[@]}")"); sres+=("$(run_sb "$f" "${flags[@]}")")
            else
                sres+=("$(run_sb "$f" "${flags[@]}")"); fres+=("$(run_fio "$f" "${flags[@]}")")
            fi
        done
        fm=$(printf '%s\n' "${fres[@]}" | cut -d' ' -f1 | median)
        sm=$(printf '%s\n' "${sres[@]}" | cut -d' ' -f1 | median)
        fc=$(printf '%s\n' "${fres[@]}" | cut -d' ' -f2 | median)
        sc=$(printf '%s\n' "${sres[@]}" | cut -d' ' -f2 | median)
        ratio=$(awk -v s="$sm" -v f="$fm" 'BEGIN {printf "%.3f", (f > 0) ? s / f : 0}')
        cratio=$(awk -v s="$sc" -v f="$fc" 'BEGIN {printf "%.3f", (s > 0) ? f / s : 0}')
        printf '%-6s %-34s %10.0f %10.0f %6s %9.2f %9.2f %6s\n' "$where" "$name" "$fm" "$sm" "$ratio" \
            "$fc" "$sc" "$cratio"
        [ -n "${VERBOSE:-}" ] && echo "    fio: ${fres[*]}  storbench: ${sres[*]}"
    done
    rm -f "$f"
done
