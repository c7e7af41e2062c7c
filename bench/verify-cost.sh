#!/bin/bash
# verify-cost — what verified I/O costs in CPU per I/O, storbench beside fio, on
# a RAM-backed file (tmpfs: no device time, so the CPU is all there is to see).
# The same one-pass 4 KiB random-write job (psync, QD1, SIZE bytes) runs six
# ways, the tools alternating in each round:
#   plain          no verify
#   write-side     --verify=crc32c --do_verify=0: headers and checksums written, no read-back
#   verify         --verify=crc32c: written, then every block read back and checked
# for storbench and for fio (fio's verify=crc32c, its default crc32c-intel code).
# Each run's CPU is user + system of the whole process (/usr/bin/time); I/Os are
# the writes plus the verify reads (fio counts those as reads, storbench as
# verify.blocks_checked). Printed per tool and way: median CPU microseconds per
# I/O and per written block, and each verifying way against the tool's plain run.
# The goal (issue 18): storbench's verify=crc32c at most 15 % more CPU per I/O
# than its plain job.
#
# Run by hand under the benchmark lock, never from `make check`:
#   flock /work/bench.lock bench/verify-cost.sh
# Environment: SB=./storbench  SIZE=1g  ROUNDS=5  RAM_DIR=/dev/shm
set -eu
SB=${SB:-./storbench}
SIZE=${SIZE:-1g}
ROUNDS=${ROUNDS:-5}
RAM_DIR=${RAM_DIR:-/dev/shm}
command -v fio >/dev/null || { echo "verify-cost: fio is missing (apt-get install fio)" >&2; exit 1; }
command -v jq >/dev/null || { echo "verify-cost: jq is missing (apt-get install jq)" >&2; exit 1; }
[ -x "$SB" ] || { echo "verify-cost: $SB not built (make)" >&2; exit 1; }

W=$(mktemp -d "$RAM_DIR/verify-cost.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP
F="$W/file"
CPU="$W/cpu"
COMMON=(--rw=randwrite --bs=4k --size="$SIZE" --ioengine=psync --iodepth=1 --randseed=1234)
WAYS=("plain|" "write-side|--verify=crc32c --do_verify=0" "verify|--verify=crc32c")

# Each prints "CPU_S WRITES IOS".
run_fio() {
    /usr/bin/time -f '%U %S' -o "$CPU" fio --name=bench --filename="$F" --output-format=json \
        "${COMMON[@]}" "$@" 2>/dev/null |
        jq -r '[.jobs[0].write.total_ios, .jobs[0].read.total_ios + .jobs[0].write.total_ios] | @tsv' |
        { read -r w n; read -r u s <"$CPU"; echo "$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}') $w $n"; }
}
run_sb() {
    /usr/bin/time -f '%U %S' -o "$CPU" "$SB" io --filename="$F" --output-format=storbench-json "${COMMON[@]}" "$@" |
        jq -r '[.write.ios, .write.ios + .read.ios + (.verify.blocks_checked // 0)] | @tsv' |
        { read -r w n; read -r u s <"$CPU"; echo "$(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}') $w $n"; }
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# One file for every run, laid out once: neither tool lays it out inside a run.
"$SB" io --rw=write --bs=1m --size="$SIZE" --filename="$F" >/dev/null
echo "tmpfs $RAM_DIR, 4k randwrite psync QD1, size $SIZE, $ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
declare -A per_io per_write
for way in "${WAYS[@]}"; do
    name=${way%%|*}
    read -r -a flags <<<"${way#*|}"
    for tool in sb fio; do eval "res_$tool=()"; done
    for ((r = 0; r < ROUNDS; r++)); do
        if ((r % 2 == 0)); then a=sb b=fio; else a=fio b=sb; fi
        for tool in $a $b; do
            out=$("run_$tool" "${flags[@]}")
            eval "res_$tool+=(\"\$out\")"
        done
    done
    for tool in sb fio; do
        eval "rs=(\"\${res_$tool[@]}\")"
        per_io[$tool.$name]=$(printf '%s\n' "${rs[@]}" | awk '{printf "%f\n", $1 * 1e6 / $3}' | median)
        per_write[$tool.$name]=$(printf '%s\n' "${rs[@]}" | awk '{printf "%f\n", $1 * 1e6 / $2}' | median)
    done
done
printf '%-10s %-11s %10s %12s %12s\n' tool way 'us/I/O' 'us/write' 'I/O vs plain'
for tool in sb fio; do
    for way in "${WAYS[@]}"; do
        name=${way%%|*}
        printf '%-10s %-11s %10.3f %12.3f %12s\n' "$([ $tool = sb ] && echo storbench || echo fio)" "$name" \
            "${per_io[$tool.$name]}" "${per_write[$tool.$name]}" \
            "$(awk -v a="${per_io[$tool.$name]}" -v b="${per_io[$tool.plain]}" 'BEGIN {printf "%+.1f %%", (a / b - 1) * 100}')"
    done
done
