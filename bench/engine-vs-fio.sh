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
#   JOB_SET=engines: vsync, splice, falloc and ftruncate jobs instead of the four below
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
#
# Engine cost modes (issue 16): --ratios, --qd-sweep, --jobs-sweep, --rss,
# --issue16 [DIR] [PAIRS]; see "issue 16" below.
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
# JOB_SET=engines: the one-file engines added later (vsync, splice, falloc, ftruncate) instead
if [ "${JOB_SET:-}" = engines ]; then
    JOBS=(
        "4k randread vsync QD1|--rw=randread --bs=4k --ioengine=vsync --iodepth=1"
        "128k read splice QD1|--rw=read --bs=128k --ioengine=splice --iodepth=1"
        "4k randwrite falloc QD1|--rw=randwrite --bs=4k --ioengine=falloc --iodepth=1"
        "4k write ftruncate QD1|--rw=write --bs=4k --ioengine=ftruncate --iodepth=1"
    )
fi

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
        --time_based --invalidate=1 --output-format=storbench-json "$@" |
        jq -r '[.total.iops, .total.ios] | @tsv' |
        { read -r iops ios; read -r u s <"$CPU"; awk -v i="$iops" -v n="$ios" -v u="$u" -v s="$s" \
            'BEGIN {printf "%f %f\n", i, (n > 0) ? (u + s) * 1e6 / n : 0}'; }
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# ------------------------------------------------------------------ issue 16
# The engine's own cost, side by side with fio (docs/performance.md, "Engine
# cost"). Modes, each on a RAM-backed file (DIR, default /dev/shm) laid out
# once by storbench and shared by both tools:
#   --ratios [DIR] [PAIRS]  4k randread of a 256 MiB file, psync QD1, io_uring
#        QD32, libaio QD32 direct: PAIRS (default 5) alternating pairs of
#        RUNTIME (3) s; per job the median IOPS of each tool, the median and
#        range of the per-pair ratios storbench/fio, and each tool's user and
#        system CPU per I/O (whole process, /usr/bin/time) and user/system
#   --qd-sweep [DIR]    io_uring and libaio (direct), QD 1 .. 1024: CPU per I/O
#        of each tool and its growth from QD1 (x = cpu(QD) / cpu(QD1))
#   --jobs-sweep [DIR]  psync, 1 .. 64 jobs on one file: the same
#   --rss [DIR]         a 64-job psync run: each tool's peak RSS, and beyond
#        the I/O buffers (fio with --thread: one process, as storbench)
#   --issue16 [DIR] [PAIRS]  all four
# Every pair of runs (fio, storbench) holds LOCK (default /work/bench.lock
# when it exists, LOCK= for none) for itself only, so that other measurements
# on a shared machine interleave between pairs, never within one.
# SWEEP_RUNTIME (default 2 s) is the run length of the sweeps and the RSS run,
# SWEEP_PAIRS (default 1) the pairs per row. For one lock hold over a whole mode
# instead: flock /work/bench.lock env LOCK= bench/engine-vs-fio.sh --ratios.
i16_setup() {
    DIR=${1:-/dev/shm}
    SIZE=256m
    LOCK=${LOCK-/work/bench.lock}
    [ -e "$LOCK" ] || LOCK=
    F="$DIR/engine-vs-fio.$$"
    files+=("$F")
    "$SB" io --rw=write --bs=1m --size="$SIZE" --filename="$F" --end_fsync >/dev/null
}

# One run: prints "IOPS IOS USER_S SYS_S MAXRSS_KB JOB_IOS JOB_USER_S JOB_SYS_S": the
# whole process (/usr/bin/time: start-up and exit included), then each tool's own
# account of the job (fio: usr_cpu and sys_cpu of each job over its runtime, the job
# process's getrusage; storbench: its "cpu" object). Tool fio or sb, runtime, flags.
i16_run() {
    local tool=$1 rt=$2; shift 2
    if [ "$tool" = fio ]; then
        /usr/bin/time -f '%U %S %M' -o "$CPU" fio --name=bench --filename="$F" --size="$SIZE" \
            --runtime="$rt" --time_based --invalidate=1 --group_reporting --output-format=json "$@" 2>/dev/null |
            jq -r '[([.jobs[] | .read.iops + .write.iops] | add), ([.jobs[] | .read.total_ios + .write.total_ios] | add),
                    ([.jobs[] | .usr_cpu * .job_runtime / 1e5] | add), ([.jobs[] | .sys_cpu * .job_runtime / 1e5] | add)] | @tsv'
    else
        /usr/bin/time -f '%U %S %M' -o "$CPU" "$SB" io --filename="$F" --size="$SIZE" --runtime="$rt" --time_based \
            --invalidate=1 --output-format=storbench-json "$@" | jq -r '[.total.iops, .total.ios, .cpu.user_s, .cpu.sys_s, .cpu.ios] | @tsv'
    fi | { read -r iops ios ju js jn; read -r u s m <"$CPU"; echo "$iops $ios $u $s $m ${jn:-$ios} $ju $js"; }
}

# A pair, alternating which goes first (round r), under the lock: "FIO_LINE|SB_LINE".
i16_pair() {
    local r=$1 rt=$2; shift 2
    local fl sl
    [ -n "$LOCK" ] && { exec 8>"$LOCK"; flock 8; }
    if ((r % 2 == 0)); then
        fl=$(i16_run fio "$rt" "$@"); sl=$(i16_run sb "$rt" "$@")
    else
        sl=$(i16_run sb "$rt" "$@"); fl=$(i16_run fio "$rt" "$@")
    fi
    [ -n "$LOCK" ] && exec 8>&-
    echo "$fl|$sl"
}

# median of stdin numbers
i16_med() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

I16_JOBS=(
    "psync QD1|--rw=randread --bs=4k --ioengine=psync --iodepth=1"
    "io_uring QD32|--rw=randread --bs=4k --ioengine=io_uring --iodepth=32"
    "libaio QD32 direct|--rw=randread --bs=4k --ioengine=libaio --iodepth=32 --direct=1"
)

i16_ratios() {
    local pairs=${1:-5}
    echo "== 4k randread, 256 MiB file on $(stat -f -c %T "$DIR") ($DIR), $pairs alternating pairs of ${RUNTIME} s"
    echo "   CPU per I/O, ns, user and system, and u/s = user/system: 'proc' of the whole process"
    echo "   (/usr/bin/time, start-up included), 'job' as each tool accounts its job: fio's usr_cpu/sys_cpu"
    echo "   (the job thread alone: not fio's other processes nor io_uring's io-wq workers), storbench's cpu"
    echo "   object (the whole process while the job ran)"
    printf '%-19s %9s %9s %5s %12s | %-19s %-19s | %-19s %-19s\n' job fio_IOPS sb_IOPS ratio '(min..max)' \
        'fio proc usr sys u/s' 'fio job usr sys u/s' 'sb proc usr sys u/s' 'sb job usr sys u/s'
    for j in "${I16_JOBS[@]}"; do
        local name=${j%%|*} flags lines=()
        read -r -a flags <<<"${j#*|}"
        for ((r = 0; r < pairs; r++)); do lines+=("$(i16_pair "$r" "$RUNTIME" "${flags[@]}")"); done
        printf '%s\n' "${lines[@]}" | tr '|' ' ' | awk -v name="$name" '
            function med(a, n,   t, i, j, x) { for (i = 1; i <= n; i++) t[i] = a[i];
                for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
                return (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2 }
            function cell(u, s, n) { return sprintf("%5.0f %6.0f %4.1f%%", med(u, n), med(s, n), 100 * med(u, n) / med(s, n)) }
            { n++; fi[n] = $1; si[n] = $9; q[n] = ($1 > 0) ? $9 / $1 : 0
              fu[n] = $3 * 1e9 / $2; fs[n] = $4 * 1e9 / $2; fju[n] = $7 * 1e9 / $6; fjs[n] = $8 * 1e9 / $6
              su[n] = $11 * 1e9 / $10; ss[n] = $12 * 1e9 / $10; sju[n] = $15 * 1e9 / $14; sjs[n] = $16 * 1e9 / $14
              if (n == 1 || q[n] < lo) lo = q[n]; if (q[n] > hi) hi = q[n] }
            END { printf "%-19s %9.0f %9.0f %5.2f (%4.2f..%4.2f) | %-19s %-19s | %-19s %-19s\n",
                name, med(fi, n), med(si, n), med(q, n), lo, hi, cell(fu, fs, n), cell(fju, fjs, n),
                cell(su, ss, n), cell(sju, sjs, n) }'
    done
}

# sweep NAME PARAM VALUES -- flags: CPU per I/O (user + system) by PARAM. The whole
# process for both tools (fio's own usr_cpu/sys_cpu count the job thread only, not
# io_uring's io-wq workers, so they cannot be set beside storbench's), and
# storbench's own "cpu" account beside it.
i16_sweep() {
    local name=$1 param=$2 values=$3; shift 3
    echo "== $name: CPU per I/O by $param (user + system, ns; usr = user alone); x = growth from"
    echo "   the first row; whole process (/usr/bin/time) for both, 'sb own' = storbench's cpu object;"
    echo "   ${SWEEP_RUNTIME} s runs, $SWEEP_PAIRS alternating pair(s) per row"
    echo "   goal met (ok) when storbench's x <= 1.10 (flat) or <= fio's x: fio's whole-process figure"
    echo "   carries its start-up and status threads, a fixed cost that thins out as IOPS rise"
    printf '%6s %9s %9s %5s | %7s %5s %5s | %7s %5s %5s | %7s %5s | %s\n' "$param" fio_IOPS sb_IOPS ratio \
        fio_cpu usr x sb_cpu usr x 'sb own' x goal
    local base_f= base_s= base_o=
    for v in $values; do
        local lines=()
        for ((r = 0; r < SWEEP_PAIRS; r++)); do lines+=("$(i16_pair "$r" "$SWEEP_RUNTIME" "$@" "--$param=$v")"); done
        local row
        row=$(printf '%s\n' "${lines[@]}" | tr '|' ' ' | awk '{n++; fi += $1; si += $9; fc += ($3 + $4) * 1e9 / $2; fu += $3 * 1e9 / $2
                sc += ($11 + $12) * 1e9 / $10; su += $11 * 1e9 / $10; so += ($15 + $16) * 1e9 / $14}
                END {printf "%f %f %f %f %f %f %f", fi / n, si / n, fc / n, fu / n, sc / n, su / n, so / n}')
        read -r fi si fc fu sc su so <<<"$row"
        [ -z "$base_f" ] && { base_f=$fc; base_s=$sc; base_o=$so; }
        awk -v v="$v" -v fi="$fi" -v si="$si" -v fc="$fc" -v fu="$fu" -v sc="$sc" -v su="$su" -v so="$so" \
            -v bf="$base_f" -v bs="$base_s" -v bo="$base_o" \
            'BEGIN {xf = fc / bf; xs = sc / bs
                printf "%6s %9.0f %9.0f %5.2f | %7.0f %5.0f %5.2f | %7.0f %5.0f %5.2f | %7.0f %5.2f | %s\n", v, fi, si,
                    (fi > 0) ? si / fi : 0, fc, fu, xf, sc, su, xs, so, so / bo, (xs <= 1.10 || xs <= xf) ? "ok" : "NO"}'
    done
}

i16_rss() {
    local rt=$SWEEP_RUNTIME lf ls
    [ -n "$LOCK" ] && { exec 8>"$LOCK"; flock 8; }
    lf=$(i16_run fio "$rt" --rw=randread --bs=4k --ioengine=psync --numjobs=64 --thread)
    ls=$(i16_run sb "$rt" --rw=randread --bs=4k --ioengine=psync --numjobs=64)
    [ -n "$LOCK" ] && exec 8>&-
    echo "== 64 jobs, psync 4k randread, one shared file, ${rt} s: peak RSS (/usr/bin/time), MiB"
    echo "   I/O buffers: 64 x 4 KiB = 0.25 MiB each tool; fio with --thread (one process, as storbench)"
    printf '%-10s %10s %14s %10s\n' tool peak_RSS beyond_buffers IOPS
    for t in fio sb; do
        local l=$lf; [ $t = sb ] && l=$ls
        read -r iops ios u s m _ <<<"$l"
        awk -v t="$t" -v m="$m" -v i="$iops" 'BEGIN {printf "%-10s %10.1f %14.1f %10.0f\n", t, m / 1024, m / 1024 - 0.25, i}'
    done
}

case "${1:-}" in
--ratios|--qd-sweep|--jobs-sweep|--rss|--issue16)
    mode=$1
    i16_setup "${2:-}"
    SWEEP_RUNTIME=${SWEEP_RUNTIME:-2}
    SWEEP_PAIRS=${SWEEP_PAIRS:-1}
    echo "storbench $("$SB" --version 2>/dev/null | head -1), $(fio --version); $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    case $mode in
    --ratios) i16_ratios "${3:-5}" ;;
    --qd-sweep)
        i16_sweep "io_uring 4k randread" iodepth "1 2 4 8 16 32 64 128 256 512 1024" --rw=randread --bs=4k --ioengine=io_uring
        i16_sweep "libaio 4k randread direct" iodepth "1 2 4 8 16 32 64 128 256 512 1024" --rw=randread --bs=4k --ioengine=libaio --direct=1 ;;
    --jobs-sweep) i16_sweep "psync 4k randread, one shared file" numjobs "1 2 4 8 16 32 64" --rw=randread --bs=4k --ioengine=psync ;;
    --rss) i16_rss ;;
    --issue16)
        i16_ratios "${3:-5}"
        i16_sweep "io_uring 4k randread" iodepth "1 2 4 8 16 32 64 128 256 512 1024" --rw=randread --bs=4k --ioengine=io_uring
        i16_sweep "libaio 4k randread direct" iodepth "1 2 4 8 16 32 64 128 256 512 1024" --rw=randread --bs=4k --ioengine=libaio --direct=1
        i16_sweep "psync 4k randread, one shared file" numjobs "1 2 4 8 16 32 64" --rw=randread --bs=4k --ioengine=psync
        i16_rss ;;
    esac
    exit 0 ;;
esac

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
