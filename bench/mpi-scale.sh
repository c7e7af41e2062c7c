#!/bin/bash
# mpi-scale — what grows with the number of ranks (docs/mpi.md, "Scale"): for
# N = 1, 2, 4 ... MAX_RANKS ranks on this machine (--oversubscribe), a trivial
# job whose I/O takes no time, so that what is left is the cost of being N ranks:
#   launch s     mpirun -np N /bin/true (Open MPI's start-up and tear-down alone)
#   io s         mpirun -np N storbench io --rw write --bs 4k --size 64k (one 4 KiB
#                write loop per rank, a directory each)
#   io out B     the size of that run's JSON output (the ranks section grows with N)
#   coll ms      rank 0's time inside the collectives of that io run (barriers,
#                all-gathers, reductions; waiting for the slowest rank included),
#                from STORBENCH_MPI_TIMES=1
#   hist ms      of which the histogram merges (3 reductions of 7424 buckets each)
#   run s        mpirun -np N storbench run dd:count=1 (gathers every rank's figures
#                and system description; rank 0 merges them and saves)
#   result B     the size of that run's result file
#   run coll ms  rank 0's time inside the collectives of that run
#   run in r0 B  the bytes the collectives of that run delivered at rank 0
#   run in rk B  ... at each other rank (both from STORBENCH_MPI_TIMES=1; a binary from
#                before the gathers to rank 0 (33a26b5) prints only what each rank sent:
#                every rank then received N x its all-gathers, 1 x the rest)
# Each figure is the median of ROUNDS rounds.
#
# Run by hand under the benchmark lock, never from `make check`:
#   flock /work/bench.lock bench/mpi-scale.sh
# Environment: SB=build/storbench MAX_RANKS=64 ROUNDS=3 DIR=/dev/shm
set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
SB=${SB:-$HERE/build/storbench}
MAX_RANKS=${MAX_RANKS:-64}
ROUNDS=${ROUNDS:-3}
DIR=${DIR:-/dev/shm}
die() { echo "mpi-scale: $*" >&2; exit 1; }
[[ "$MAX_RANKS" =~ ^[1-9][0-9]*$ ]] || { echo "mpi-scale: MAX_RANKS must be a positive number" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "mpi-scale: ROUNDS must be a positive number" >&2; exit 2; }
[ -d "$DIR" ] || { echo "mpi-scale: DIR=$DIR is not a directory" >&2; exit 2; }
command -v mpirun >/dev/null || die "mpirun is missing (scripts/bootstrap)"
command -v jq >/dev/null || die "jq is missing"
[ -x "$SB" ] && [ -x "$(dirname "$SB")/storbench-mpi" ] || die "$SB or storbench-mpi beside it not built (make, with Open MPI)"
MPIRUN=(mpirun -q --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)

W=$(mktemp -d "$DIR/mpi-scale.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP
export XDG_DATA_HOME=$W/xdg
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }
# secs COMMAND...: its wall time, its output in $W/out and $W/err; a failure stops the bench
secs() {
    local t0 t1
    t0=$(now)
    "$@" >"$W/out" 2>"$W/err" || die "failed: $* ($(tail -2 "$W/err"))"
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}
# the collectives' time rank 0 reported (all kinds but the histogram merge, already in allreduce)
coll_ms() { awk '/^storbench: mpi times:/ && !/histogram merge/ { sub(/ ms,.*/, ""); s += $NF } END { printf "%.1f\n", s }' "$W/err"; }
# bytes delivered by the collectives (histogram merges are counted under allreduce): $1 = 0
# at rank 0, 1 at each other rank
in_b() {
    awk -v other="$1" -v n="$2" '/^storbench: mpi times:/ && !/histogram merge/ {
        if (match($0, /[0-9]+ bytes in at rank 0, [0-9]+ bytes in at each other rank/)) {
            split(substr($0, RSTART, RLENGTH), f, " "); s += other ? f[7] : f[1]
        } else if (match($0, /[0-9]+ bytes per rank/)) {
            split(substr($0, RSTART, RLENGTH), f, " "); s += /allgather/ ? n * f[1] : f[1]
        }
    } END { printf "%d\n", s }' "$W/err"
}
hist_ms() { awk '/^storbench: mpi times: histogram merge/ { sub(/ ms,.*/, ""); s += $NF } END { printf "%.1f\n", s }' "$W/err"; }

echo "mpi-scale: 1 to $MAX_RANKS ranks on $(nproc) CPUs (oversubscribed), $DIR, median of $ROUNDS rounds, load $(cut -d' ' -f1 /proc/loadavg) at start"
printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' ranks "launch s" "io s" "io out B" "coll ms" \
    "hist ms" "run s" "result B" "run coll ms" "run in r0 B" "run in rk B"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
n=1
while [ "$n" -le "$MAX_RANKS" ]; do
    for ((r = 1; r <= ROUNDS; r++)); do
        mkdir -p "$W/t"
        echo "$(secs "${MPIRUN[@]}" -np "$n" /bin/true)" >>"$W/launch"
        echo "$(STORBENCH_MPI_TIMES=1 secs "${MPIRUN[@]}" -np "$n" "$SB" io --rw write --bs 4k --size 64k \
            --directory "$W/t" --output-format storbench-json)" >>"$W/io"
        wc -c <"$W/out" >>"$W/ioout"
        coll_ms >>"$W/coll"
        hist_ms >>"$W/hist"
        rm -f "$XDG_DATA_HOME/storbench/results/scale.json"
        echo "$(STORBENCH_MPI_TIMES=1 secs "${MPIRUN[@]}" -np "$n" "$SB" run dd:count=1 --runs 1 --exact-runs \
            --no-drop-caches --target "$W/t" --result scale --identifier "n$n")" >>"$W/run"
        wc -c <"$XDG_DATA_HOME/storbench/results/scale.json" >>"$W/result"
        coll_ms >>"$W/runcoll"
        in_b 0 "$n" >>"$W/runin0"
        in_b 1 "$n" >>"$W/runin1"
    done
    row=$n
    for f in launch io ioout coll hist run result runcoll runin0 runin1; do row="$row | $(median <"$W/$f")"; rm -f "$W/$f"; done
    echo "| $row |"
    n=$((n * 2))
done
