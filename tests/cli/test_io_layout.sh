#!/bin/bash
# CLI tests of `storbench io --shared-file --layout` (docs/mpi.md, "`io` on ranks";
# runner/io_ranks.c): contiguous (rank R's region at R x size, the default) and
# interleaved (IOR's segments: rank R's segment s at (s x ranks + R) x segment),
# proven by the offsets each rank logged (--write_lat_log --log_offset, each rank in
# its own directory), for a write and for a read (after its write phase), with
# --segments; the refusals (exit 2, before anything is made). 2 ranks on this
# machine, tiny sizes: behaviour, never speed. Skipped visibly without Open MPI.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }

MPI_BIN="$(dirname "$SB_BIN")/storbench-mpi"
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    ok "io --layout on ranks # SKIP no mpirun or no storbench-mpi (scripts/bootstrap installs Open MPI)"
    finish
fi
MPIRUN=(timeout 120 mpirun -q --oversubscribe -np 2)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
D="$T/target"
mkdir -p "$D" "$T/r0" "$T/r1"

# every rank in its own directory, so that each writes its own PREFIX_lat.1.log
run2() {
    rm -f "$T"/r0/* "$T"/r1/*
    # shellcheck disable=SC2016
    "${MPIRUN[@]}" sh -c 'cd "$0/r$OMPI_COMM_WORLD_RANK" && exec "$@"' "$T" \
        "$MPI_BIN" io --write_lat_log=lat --log_offset "$@"
}
# the offsets rank $1 logged for direction $2 (0 read, 1 write), in order, on one line
offs() { awk -F', ' -v d="$2" '$3 == d { printf "%s%s", s, $5; s = " " } END { print "" }' "$T/r$1/lat_lat.1.log"; }

# ---- contiguous (the default): rank R's 16 KiB region at R x 16 KiB ----
check_exit "2 ranks: shared file, contiguous" 0 run2 --rw write --bs 4k --size 16k --shared-file \
    --filename "$D/c"
check "contiguous: rank 0 wrote 0..12288" test "$(offs 0 1)" = "0 4096 8192 12288"
check "contiguous: rank 1 wrote 16384..28672" test "$(offs 1 1)" = "16384 20480 24576 28672"
check "contiguous: the file is 2 regions" test "$(stat -c %s "$D/c")" = 32768
check_exit "2 ranks: --layout contiguous is the default" 0 run2 --rw write --bs 4k --size 16k \
    --shared-file --layout contiguous --filename "$D/c"
check "contiguous named: the same offsets" test "$(offs 1 1)" = "16384 20480 24576 28672"
rm -f "$D/c"

# ---- interleaved, one block per segment (IO500's ior-hard): the ranks' blocks alternate ----
check_exit "2 ranks: shared file, interleaved" 0 run2 --rw write --bs 4k --size 16k --shared-file \
    --layout interleaved --filename "$D/i" --output-format storbench-json
check "interleaved: rank 0 wrote the even blocks" test "$(offs 0 1)" = "0 8192 16384 24576"
check "interleaved: rank 1 wrote the odd blocks" test "$(offs 1 1)" = "4096 12288 20480 28672"
check "interleaved: the file is 2 x 16 KiB" test "$(stat -c %s "$D/i")" = 32768
check "interleaved: each rank did its 16 KiB" jqok '.ranks.phases[0].bytes == 32768 and .ranks.phases[0].ios == 8' "$T/out"
check "json: layout and segment bytes" jqok '.ranks.layout == "interleaved" and .ranks.segment_bytes == 4096' "$T/out"
rm -f "$D/i"

# ---- --segments 2: segments of 8 KiB (IOR's -b 8k -t 4k -s 2) ----
check_exit "2 ranks: interleaved, --segments 2" 0 run2 --rw write --bs 4k --size 16k --shared-file \
    --layout interleaved --segments 2 --filename "$D/s"
check "segments 2: rank 0's segments at 0 and 16384" test "$(offs 0 1)" = "0 4096 16384 20480"
check "segments 2: rank 1's segments at 8192 and 24576" test "$(offs 1 1)" = "8192 12288 24576 28672"
check "text: the ranks line names the layout" grep -q "segments interleaved of 8192 bytes" "$T/out"
rm -f "$D/s"

# ---- a read: its write phase and the read both in the layout ----
check_exit "2 ranks: interleaved read (write phase, then read)" 0 run2 --rw read --bs 4k --size 16k \
    --shared-file --layout interleaved --filename "$D/r" --output-format storbench-json
# (the read's log replaces the write phase's: the write phase is the job's own layout, seen above)
check "read: a write phase, then the read, 32 KiB each" \
    jqok '[.ranks.phases[] | [.rw, .bytes]] == [["write", 32768], ["read", 32768]]' "$T/out"
check "read: rank 1 read the odd blocks" test "$(offs 1 0)" = "4096 12288 20480 28672"
check "read: rank 0 read the even blocks" test "$(offs 0 0)" = "0 8192 16384 24576"
rm -f "$D/r"

# ---- refused, exit 2, nothing made ----
refuse() {
    local name=$1; shift
    check_exit "refused: $name" 2 "${MPIRUN[@]}" "$MPI_BIN" io --bs 4k --size 16k "$@"
}
refuse "interleaved without --shared-file" --rw write --layout interleaved --filename "$D/x"
refuse "interleaved random" --rw randwrite --shared-file --layout interleaved --filename "$D/x"
refuse "segments that split no block" --rw write --shared-file --layout interleaved --segments 3 --filename "$D/x"
refuse "--segments without interleaved" --rw write --shared-file --segments 2 --filename "$D/x"
refuse "an unknown layout" --rw write --shared-file --layout striped --filename "$D/x"
check "refusals made nothing" test -z "$(ls -A "$D")"
finish
