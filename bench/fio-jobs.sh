#!/bin/bash
# fio-jobs — the same fio job files run by fio and by `storbench io` on the same
# target file, alternating which tool goes first, ROUNDS rounds; per job and round
# the ratios storbench/fio of IOPS and of bandwidth, and the ratio of CPU per I/O
# (user + system seconds / I/Os, each from the tool's own JSON: storbench's
# jobs[].cpu.user_s + sys_s over cpu.ios, the whole process; fio's jobs[].usr_cpu +
# sys_cpu, % of job_runtime, over read.total_ios + write.total_ios) and, since fio's
# figure is its job thread's alone, also from /usr/bin/time (the whole process tree,
# every thread, over the same I/Os); then per job the
# geometric mean, min and max of each ratio over the rounds (issue 27's goals: IOPS
# and bandwidth 0.9 .. 1.1 on a disk-bound target; CPU per I/O ratio at most 1.0).
#
#   bench/fio-jobs.sh [-t TARGET_DIR] [JOBDIR]
#
# JOBDIR: *.fio files, one job each, which name their file ${FIOJOBS_FILE} and may use
# ${FIOJOBS_SIZE}, ${FIOJOBS_RUNTIME} and ${FIOJOBS_DIRECT} (both tools expand them from
# the environment). Without JOBDIR, six representative jobs (written at the bottom): 4k
# randread QD32 libaio and io_uring, 1M sequential write, 4k randrw 70/30 QD16, 4k psync
# QD1 randread, 128k sequential read. TARGET_DIR (default /var/tmp: the disk) holds the
# one file both tools use, SIZE bytes of random data laid out once before the first run
# (so reads reach the device, not a hole); on a tmpfs (/dev/shm) FIOJOBS_DIRECT is 0,
# as tmpfs refuses O_DIRECT, and the comparison is of CPU per I/O.
#
# Environment: ROUNDS=3 RUNTIME=5 (s per run) SIZE=512m SB=./storbench VERBOSE=1 (each
# run's figures). THROTTLE_IOPS=N THROTTLE_BPS=BYTES (root): both tools run in a blkio
# cgroup (v1 blkio.throttle, or v2 io.max) that limits the target's disk to N read and N
# write IOPS and BYTES/s each way, so that the disk, not a CPU shared with others, bounds
# both: a disk-bound target by construction (the cgroup is removed at the end). Each pair of runs holds LOCK (default /work/bench.lock when it exists;
# LOCK= for none), as bench/engine-vs-fio.sh. Run by hand, never from `make check`.
set -u
LIB_NAME=fio-jobs
LIB_WORK=$(mktemp -d /var/tmp/sb-fiojobs.XXXXXX)
. "$(dirname "$0")/lib.sh"
trap lib_cleanup EXIT
trap 'exit 130' INT TERM HUP

TARGET=/var/tmp
[ "${1:-}" = -t ] && { TARGET=$2; shift 2; }
JOBDIR=${1:-}
ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-5}
SIZE=${SIZE:-512m}
SB=${SB:-$SB}
LOCK=${LOCK-/work/bench.lock}
[ -e "${LOCK:-/nonexistent}" ] || LOCK=
command -v fio >/dev/null || lib_die "fio is not installed (apt-get install fio)"
command -v jq >/dev/null || lib_die "jq is not installed (apt-get install jq)"
[ -x "$SB" ] || lib_die "$SB not built (make)"

export FIOJOBS_FILE="$TARGET/sb-fiojobs.$$.dat" FIOJOBS_SIZE=$SIZE FIOJOBS_RUNTIME=$RUNTIME
FIOJOBS_DIRECT=1
[ "$(stat -f -c %T "$TARGET")" = tmpfs ] && FIOJOBS_DIRECT=0
export FIOJOBS_DIRECT
trap 'rm -f "$FIOJOBS_FILE"; lib_cleanup' EXIT

# THROTTLE_*: this script (and so both tools) in a cgroup of its own that limits the disk.
CG=
throttle_cleanup() {
    [ -n "$CG" ] || return 0
    if [ -e /sys/fs/cgroup/blkio/cgroup.procs ]; then echo $$ >/sys/fs/cgroup/blkio/cgroup.procs
    else echo $$ >/sys/fs/cgroup/cgroup.procs; fi
    rmdir "$CG" 2>/dev/null
}
if [ -n "${THROTTLE_IOPS:-}" ]; then
    dev=$(stat -c %d "$TARGET")
    mm="$((dev >> 8 & 0xfff)):$((dev & 0xff | (dev >> 12 & 0xfff00)))"
    # a partition's limits go on its disk (the throttle works on whole disks' queues too)
    [ -e "/sys/dev/block/$mm/partition" ] && mm=$(cat "/sys/dev/block/$mm/../dev")
    bps=${THROTTLE_BPS:-0}
    if [ -d /sys/fs/cgroup/blkio ]; then
        CG=/sys/fs/cgroup/blkio/sb-fiojobs.$$
        mkdir "$CG" || lib_die "cannot make $CG (root?)"
        for d in read write; do
            echo "$mm $THROTTLE_IOPS" >"$CG/blkio.throttle.${d}_iops_device"
            [ "$bps" != 0 ] && echo "$mm $bps" >"$CG/blkio.throttle.${d}_bps_device"
        done
    else
        CG=/sys/fs/cgroup/sb-fiojobs.$$
        mkdir "$CG" || lib_die "cannot make $CG (root, cgroup v2 with io?)"
        echo "$mm riops=$THROTTLE_IOPS wiops=$THROTTLE_IOPS$([ "$bps" != 0 ] && echo " rbps=$bps wbps=$bps")" \
            >"$CG/io.max" || lib_die "io.max refused (is the io controller enabled?)"
    fi
    echo $$ >"$CG/cgroup.procs"
    trap 'throttle_cleanup; rm -f "$FIOJOBS_FILE"; lib_cleanup' EXIT
    echo "throttled: disk $mm at $THROTTLE_IOPS IOPS and ${bps} B/s each way (cgroup $CG)" >&2
fi

if [ -z "$JOBDIR" ]; then
    JOBDIR=$LIB_WORK/jobs
    mkdir -p "$JOBDIR"
    common='filename=${FIOJOBS_FILE}
size=${FIOJOBS_SIZE}
runtime=${FIOJOBS_RUNTIME}
time_based
direct=${FIOJOBS_DIRECT}'
    mk() { local n=$1; shift; { printf '[%s]\n%s\n' "$n" "$common"; printf '%s\n' "$@"; } >"$JOBDIR/$n.fio"; }
    mk randread-4k-qd32-libaio rw=randread bs=4k ioengine=libaio iodepth=32
    mk randread-4k-qd32-io_uring rw=randread bs=4k ioengine=io_uring iodepth=32
    mk seqwrite-1m-qd4-libaio rw=write bs=1m ioengine=libaio iodepth=4
    mk randrw-70-30-4k-qd16-libaio rw=randrw rwmixread=70 bs=4k ioengine=libaio iodepth=16
    mk randread-4k-psync rw=randread bs=4k ioengine=psync
    mk seqread-128k-qd8-io_uring rw=read bs=128k ioengine=io_uring iodepth=8
fi
ls "$JOBDIR"/*.fio >/dev/null 2>&1 || lib_die "no *.fio in $JOBDIR"

# The target file: SIZE bytes of data, written once (both tools then reuse it).
echo "laying out $FIOJOBS_FILE ($SIZE)" >&2
fio --name=layout --filename="$FIOJOBS_FILE" --size="$SIZE" --rw=write --bs=1m --ioengine=psync \
    --refill_buffers --end_fsync=1 --output=/dev/null || lib_die "cannot lay out $FIOJOBS_FILE"

# fig TOOL JSON: "IOPS BW_BYTES_PER_S CPU_S_PER_IO" of the first job. storbench's own keys
# when it has them, else fio's (fio's schema, which storbench's fio output follows too).
fig() {
    jq -r 'def z: . // 0; .jobs[0] as $j |
        [($j.read.iops | z) + ($j.write.iops | z),
         ($j.read.bw_bytes // $j.read.bw_bytes_per_s | z) + ($j.write.bw_bytes // $j.write.bw_bytes_per_s | z),
         (if $j.cpu.ios then ($j.cpu.user_s + $j.cpu.sys_s) / $j.cpu.ios
          else (($j.usr_cpu + $j.sys_cpu) / 100 * $j.job_runtime / 1000) /
               ((($j.read.total_ios | z) + ($j.write.total_ios | z)) | if . > 0 then . else 1 end) end)]
        | @tsv' "$1"
}

# ios JSON: the I/Os of the first job (storbench's cpu.ios, else fio's total_ios).
ios() {
    jq -r '.jobs[0] as $j | ($j.cpu.ios // (($j.read.total_ios // 0) + ($j.write.total_ios // 0)))' "$1"
}

# Each run under /usr/bin/time too: user + system seconds of the whole process tree, every
# thread included (fio's own usr_cpu/sys_cpu come from getrusage(RUSAGE_THREAD) of its job
# thread, which leaves out io_uring's io-wq workers; storbench's cpu is the whole process).
run_tool() { # TOOL JOBFILE: figures into $LIB_WORK/TOOL.fig: IOPS BW CPU/IO(JSON) CPU/IO(time)
    local t=$1 f=$2 j
    if [ "$t" = fio ]; then
        j=$LIB_WORK/fio.json
        lib_run -o "$LIB_WORK/fio.log" /usr/bin/time -f '%U %S' -o "$LIB_WORK/time" \
            fio --output-format=json --output="$j" "$f" ||
            { echo "fio failed on $f: $(tail -2 "$LIB_WORK/fio.log")" >&2; return 1; }
    else
        j=$LIB_WORK/sb.json
        lib_run -o "$j" /usr/bin/time -f '%U %S' -o "$LIB_WORK/time" \
            "$SB" io --quiet --output-format=json "$f" ||
            { echo "storbench failed on $f: $(tail -2 "$j")" >&2; return 1; }
    fi
    read -r tu ts <"$LIB_WORK/time"
    printf '%s\t%s\n' "$(fig "$j")" "$(awk -v u="$tu" -v s="$ts" -v n="$(ios "$j")" \
        'BEGIN { printf "%.9f", (n > 0 ? (u + s) / n : 0) }')" >"$LIB_WORK/$t.fig"
}

pair() { # JOBFILE ROUND
    local first=fio second=sb
    [ $(($2 % 2)) = 1 ] && first=sb second=fio
    run_tool $first "$1" && run_tool $second "$1"
}

printf 'job\tround\tfio_iops\tsb_iops\tiops_ratio\tbw_ratio\tfio_cpu_us\tsb_cpu_us\tcpu_ratio\ttime_ratio\n' >"$LIB_WORK/rows"
for f in "$JOBDIR"/*.fio; do
    name=$(basename "$f" .fio)
    for r in $(seq 1 "$ROUNDS"); do
        if [ -n "$LOCK" ]; then
            exec {lk}>>"$LOCK" && flock "$lk"
        fi
        ok=1
        pair "$f" "$r" || ok=0
        [ -n "$LOCK" ] && exec {lk}>&-
        [ $ok = 1 ] || continue
        read -r fi fb fc ft <"$LIB_WORK/fio.fig"
        read -r si sbw sc st <"$LIB_WORK/sb.fig"
        awk -v n="$name" -v r="$r" -v fi="$fi" -v si="$si" -v fb="$fb" -v sbw="$sbw" -v fc="$fc" -v sc="$sc" \
            -v ft="$ft" -v st="$st" \
            'BEGIN { printf "%s\t%d\t%.0f\t%.0f\t%.4f\t%.4f\t%.3f\t%.3f\t%.4f\t%.4f\n", n, r, fi, si,
                     (fi > 0 ? si / fi : 0), (fb > 0 ? sbw / fb : 0), fc * 1e6, sc * 1e6, (fc > 0 ? sc / fc : 0),
                     (ft > 0 ? st / ft : 0) }' \
            >>"$LIB_WORK/rows"
        [ "${VERBOSE:-0}" = 1 ] && tail -1 "$LIB_WORK/rows" >&2
    done
done

echo "target: $FIOJOBS_FILE ($(stat -f -c %T "$TARGET"), direct=$FIOJOBS_DIRECT), $SIZE, ${RUNTIME} s runs, $ROUNDS rounds, order alternating${CG:+, disk throttled to $THROTTLE_IOPS IOPS and ${THROTTLE_BPS:-0} B/s each way}; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratios storbench/fio: IOPS, bandwidth, CPU per I/O (< 1: storbench spends less); geometric mean [min .. max]"
awk -F '\t' '
    NR == 1 { next }
    {
        k = $1
        if (!(k in n)) { order[++m] = k; n[k] = 0 }
        n[k]++; fi[k] += $3; si[k] += $4; fc[k] += $7; sc[k] += $8
        for (c = 5; c <= 10; c += 1) if (c == 5 || c == 6 || c == 9 || c == 10) {
            v = ($c > 0) ? $c : 1e-9
            lg[k, c] += log(v)
            if (n[k] == 1 || v < lo[k, c]) lo[k, c] = v
            if (n[k] == 1 || v > hi[k, c]) hi[k, c] = v
        }
    }
    function r(k, c) { return sprintf("%.2f [%.2f .. %.2f]", exp(lg[k, c] / n[k]), lo[k, c], hi[k, c]) }
    END {
        fmt = "| %-30s | %9s | %9s | %-18s | %-18s | %7s | %7s | %-18s | %-18s | %6s |\n"
        printf fmt, "job", "fio IOPS", "sb IOPS", "IOPS ratio", "BW ratio", "fio us", "sb us", "CPU/IO (JSON)",
            "CPU/IO (time)", "rounds"
        printf "|---|---:|---:|---|---|---:|---:|---|---|---:|\n"
        for (i = 1; i <= m; i++) {
            k = order[i]
            printf fmt, k, sprintf("%.0f", fi[k] / n[k]), sprintf("%.0f", si[k] / n[k]), r(k, 5), r(k, 6),
                sprintf("%.2f", fc[k] / n[k]), sprintf("%.2f", sc[k] / n[k]), r(k, 9), r(k, 10), n[k]
            for (c = 5; c <= 10; c++) if (c == 5 || c == 6 || c == 9 || c == 10) { all[c] += lg[k, c] / n[k] }
        }
        if (m) printf "geometric mean over the jobs: IOPS %.2f, bandwidth %.2f, CPU per I/O %.2f (JSON), %.2f (time)\n",
            exp(all[5] / m), exp(all[6] / m), exp(all[9] / m), exp(all[10] / m)
    }' "$LIB_WORK/rows"
