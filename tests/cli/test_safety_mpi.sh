#!/bin/bash
# Safety under MPI (issue 24, item 9): `mpirun -np 2 storbench run fs-mark` must end.
# It used to spin for ever printing "Error reading from eventfd: Bad file
# descriptor": fs-mark's worker threads, each with a descriptor table of its own
# (core/fdtable.h), polled the other ranks through MPI_Iprobe, which ran Open MPI's
# progress engine in a table without the library's eventfd. Each run here is
# bounded by `timeout` (a healthy one takes a second or two; the bound only tells
# a hang from an end), its output counted rather than kept (a hang writes
# hundreds of MB). Tiny scale; skipped, visibly, without Open MPI.
. "$(dirname "$0")/lib.sh"

MPI_BIN="$(dirname "$SB_BIN")/storbench-mpi"
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    ok "mpi safety tests # SKIP no mpirun or no storbench-mpi (scripts/bootstrap installs Open MPI)"
    finish
fi
MPIRUN=(mpirun -q --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
D="$T/target"
mkdir -p "$D"

# bounded NP ARGS...: runs storbench on NP ranks for at most 60 s; the first lines of
# its output go to $T/out, the count of eventfd complaints to $T/eventfd; returns
# the exit status (124 when it had to be stopped).
bounded() {
    local np=$1; shift
    timeout -k 5 60 "${MPIRUN[@]}" -np "$np" "$SB" "$@" 2>&1 |
        awk -v out="$T/out" -v cnt="$T/eventfd" \
            'NR <= 40 { print > out } /eventfd/ { n++ } END { print n + 0 > cnt }'
    return "${PIPESTATUS[0]}"
}

hung=0
for np in 2 3; do
    for trial in 1 2; do
        if [ "$hung" = 1 ]; then # one hang is enough: no need to wait a minute more each
            not_ok "$np ranks, trial $trial: not run after a hang"; continue
        fi
        : >"$T/out"
        bounded "$np" run fs-mark:test=custom,files=20,size=64k,threads=2 dd:count=2 --runs 1 \
            --target "$D" --result mpi --identifier "np$np-$trial"
        rc=$?
        [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && hung=1
        if [ "$rc" -eq 0 ]; then ok "$np ranks, trial $trial: run fs-mark ends, exit 0"
        else not_ok "$np ranks, trial $trial: run fs-mark ends, exit 0 (exit $rc: $(head -c 300 "$T/out"))"; fi
        check "$np ranks, trial $trial: no eventfd errors" test "$(cat "$T/eventfd")" -eq 0
        check "$np ranks, trial $trial: saved" grep -q "^Saved 2 tests as 'np$np-$trial'" "$T/out"
    done
done
check "every identifier in the result file" test "$(jq -r '.results[] | select(.test == "fs-mark") |
    .entries[].identifier' "$XDG_DATA_HOME/storbench/results/mpi.json" | sort -u | wc -l)" -eq 4
check "every rank removed its directory" test -z "$(ls -A "$D")"

# A rank that fails stops the others' fs-mark workers: rank 1 may write no file beyond
# 8 KiB (EFBIG at its first write) while rank 0 has 100,000 files of 64 KiB to make and
# fsync, minutes of work; the main thread of rank 0 polls the other ranks while its
# workers run and stops them, so the run ends at once with rank 1's line.
rank1_limited() {
    timeout -k 5 60 "${MPIRUN[@]}" -np 2 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
        trap "" XFSZ; ulimit -f 8; fi; exec "$@"' sh "$SB" "$@"
}
check_exit "failing rank stops fs-mark on the other: exit 1" 1 rank1_limited run \
    fs-mark:test=custom,files=100000,size=64k,threads=2 --runs 1 --target "$D" --result failed
check_one_line "failing rank: one line naming it" "rank 1 on $(hostname): fs-mark: write"
check "failing rank: every rank's directory removed" test -z "$(ls -A "$D")"

# The I/O loop's psync threads have tables of their own too; the job's control
# thread is the one that polls the other ranks.
bounded 2 io --rw write --bs 64k --size 1m --numjobs 2 --directory "$D"
rc=$?
check "2 ranks: io with 2 psync threads per rank ends, exit 0" test "$rc" -eq 0
check "2 ranks: io: no eventfd errors" test "$(cat "$T/eventfd")" -eq 0
finish
