#!/bin/bash
# mpi-scaling — how storbench's aggregate bandwidth and its CPU per I/O scale
# from 1 to 4 MPI ranks on a RAM-backed directory (tmpfs: no device time, so
# what limits the figures is the CPU and the kernel's page cache). For each
# rank count N = 1 .. MAX_RANKS, ROUNDS times, one
#     mpirun -np N storbench io --rw MODE --bs BS --size SIZE --directory RAM_DIR/...
# (SIZE per rank, a file per rank) and, from its JSON (docs/io-json.md):
#   aggregate MB/s    all ranks' bytes / (latest end - earliest start)
#   per-rank MB/s     the mean of each rank's own bandwidth
#   last-first ms     how far apart the ranks finished
#   CPU us/IO         user + system CPU of every rank's job threads / all I/Os
# Printed: the median over the rounds per N, and N's aggregate against 1 rank.
# With more ranks than CPUs (--oversubscribe) the ranks share cores: the
# aggregate then stops growing, and the table shows where.
#
# Run by hand under the benchmark lock, never from `make check`:
#   flock /work/bench.lock bench/mpi-scaling.sh
# Environment: SB=./storbench MODE=write BS=4k SIZE=256m ROUNDS=3 MAX_RANKS=4 RAM_DIR=/dev/shm
set -eu
SB=${SB:-./storbench}
MODE=${MODE:-write}
BS=${BS:-4k}
SIZE=${SIZE:-256m}
ROUNDS=${ROUNDS:-3}
MAX_RANKS=${MAX_RANKS:-4}
RAM_DIR=${RAM_DIR:-/dev/shm}
command -v mpirun >/dev/null || { echo "mpi-scaling: mpirun is missing (scripts/bootstrap)" >&2; exit 1; }
command -v jq >/dev/null || { echo "mpi-scaling: jq is missing (apt-get install jq)" >&2; exit 1; }
[ -x "$SB" ] && [ -x "$(dirname "$SB")/storbench-mpi" ] ||
    { echo "mpi-scaling: $SB or storbench-mpi beside it not built (make, with Open MPI)" >&2; exit 1; }
MPIRUN=(mpirun -q --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)

W=$(mktemp -d "$RAM_DIR/mpi-scaling.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "tmpfs $RAM_DIR, $MODE bs=$BS size=$SIZE per rank, psync QD1, $ROUNDS rounds, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%5s %14s %14s %14s %12s %10s\n' ranks "aggregate MB/s" "per-rank MB/s" "last-first ms" "CPU us/IO" "vs 1 rank"
base=""
for ((n = 1; n <= MAX_RANKS; n++)); do
    : >"$W/rows"
    for ((r = 0; r < ROUNDS; r++)); do
        "${MPIRUN[@]}" -np "$n" "$SB" io --rw "$MODE" --bs "$BS" --size "$SIZE" --directory "$W" \
            --output-format storbench-json >"$W/out.json"
        jq -r '.ranks.phases[-1] as $p |
               [$p.bw_bytes_per_s / 1e6, $p.per_rank_bw_bytes_per_s.mean / 1e6,
                ($p.last_done_s - $p.first_done_s) * 1e3,
                (if .cpu.ios > 0 then (.cpu.user_s + .cpu.sys_s) * 1e6 / .cpu.ios else 0 end)] | @tsv' \
            "$W/out.json" >>"$W/rows"
    done
    agg=$(cut -f1 "$W/rows" | median); per=$(cut -f2 "$W/rows" | median)
    spread=$(cut -f3 "$W/rows" | median); cpu=$(cut -f4 "$W/rows" | median)
    base=${base:-$agg}
    printf '%5d %14.0f %14.0f %14.1f %12.3f %9.2fx\n' "$n" "$agg" "$per" "$spread" "$cpu" \
        "$(awk -v a="$agg" -v b="$base" 'BEGIN {print a / b}')"
done
