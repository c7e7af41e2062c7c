#!/bin/bash
# CLI tests of verified I/O (`storbench io --verify`, docs/io.md "Verified I/O"):
# zero false alarms in the jobs where fio's users see them (random writes at
# QD > 1 with norandommap, randrw, several jobs on one file, backlog checks) on
# every engine; each kind of damage done to a written file between a run and a
# verify_only run is caught with exit 1 and one line naming the file, offset and
# field, and the JSON verify section says so; the option errors.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }
# tmpfs when there is one (fast); the disk-backed scratch area otherwise
R=$(mktemp -d /dev/shm/sbverify.XXXXXX 2>/dev/null || mktemp -d "$T/v.XXXXXX")
trap 'rm -rf "$T" "$R"' EXIT
F="$R/file"

# ---- no false alarms ----
clean() { # NAME ARGS...: exit 0, errors 0, something checked
    local n=$1; shift
    rm -f "$F"
    check_exit "$n" 0 "$SB" io --filename "$F" --output-format storbench-json "$@"
    if jqok '.verify.errors == 0 and .verify.blocks_checked > 0' "$T/out"; then ok "$n: checked, no error"
    else not_ok "$n: $(jq -c .verify "$T/out" 2>/dev/null) $(head -c 300 "$T/err")"; fi
}
for e in psync io_uring libaio posixaio mmap; do
    d=16; [ "$e" = psync ] || [ "$e" = mmap ] && d=1
    clean "randwrite norandommap $e QD$d 4 jobs one file" --rw randwrite --norandommap --bs 4k \
        --size 1m --ioengine "$e" --iodepth "$d" --numjobs 4 --runtime 0.5 --time_based --verify crc32c
done
clean "randrw QD32 io_uring backlog" --rw randrw --norandommap --bs 4k --size 512k --ioengine io_uring \
    --iodepth 32 --numjobs 3 --runtime 0.5 --time_based --verify xxhash --verify_backlog 16
check "randrw: reads checked as they complete" jqok '.read.ios > 0' "$T/out"
clean "randrw libaio direct" --rw randrw --bs 4k --size 1m --ioengine libaio --iodepth 8 --direct \
    --numjobs 2 --verify pattern --verify_backlog 4
clean "sequential write, several jobs, sha256" --rw write --bs 64k --size 2m --numjobs 3 --verify sha256
clean "tiny region, QD near the block count" --rw randwrite --norandommap --bs 4k --size 68k \
    --ioengine io_uring --iodepth 4 --numjobs 4 --runtime 0.3 --time_based --verify crc32c
check "busy blocks were met and moved" jqok '.verify.writes_moved > 0' "$T/out"

# ---- each kind of damage, caught by verify_only ----
W=(--rw randwrite --bs 4k --size 256k --verify crc32c --filename "$F")
fresh() { rm -f "$F"; "$SB" io "${W[@]}" >/dev/null 2>&1; }
fresh
check_exit "verify_only on an intact file" 0 "$SB" io "${W[@]}" --verify_only
check "verify_only checks every block" grep -q "64 blocks (256 KiB) checked, 0 errors" "$T/out"
flip() { flip_byte "$F" "$1"; }
caught() { # NAME FIELD OFFSET: exit 1, one line with the file, offset and field
    check_exit "$1: exit 1" 1 "$SB" io "${W[@]}" --verify_only --output-format storbench-json
    if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "verify: $F: offset $3: $2" "$T/err"; then ok "$1: one line"
    else not_ok "$1: $(cat "$T/err")"; fi
    check "$1: JSON says where" jqok ".verify.errors == 1 and .verify.first_bad_offset_bytes == $3" "$T/out"
}
fresh; flip $((4096 * 5 + 2000)); flip $((4096 * 5 + 2001))
caught "flipped data byte" "data: byte 200[01] of the block: expected" 20480
fresh; flip $((4096 * 9 + 17))
caught "flipped header byte (offset field)" "offset: expected 36864, found .* (header CRC wrong" 36864
fresh; flip $((4096 * 9 + 40))
caught "flipped header byte (time)" "header CRC: expected" 36864
fresh; dd if="$F" of="$F" bs=4096 skip=3 seek=12 count=1 conv=notrunc status=none
caught "block at the wrong offset" "offset: expected 49152, found 12288 (a block written for another offset)" 49152
fresh; dd if=/dev/zero of="$F" bs=4096 seek=7 count=1 conv=notrunc status=none
caught "zeroed block" "magic: expected 0x31564253, found 00000000" 28672
rm -f "$F"; "$SB" io "${W[@]}" --randseed 9 >/dev/null 2>&1
caught "another job's seed" "seed: expected" 0

# A stale block needs the writer's table: the unit test (test_verify) catches
# one in the read-back and in a read during the job.

# ---- option errors ----
check_exit "unknown algorithm" 2 "$SB" io --verify crc99 --filename "$F"
check_one_line "unknown algorithm: one line" "unknown algorithm 'crc99'"
check_exit "verify_only without verify" 2 "$SB" io --verify_only --filename "$F"
check_one_line "verify_only without verify: one line" "needs --verify"
check_exit "verify_backlog without verify" 2 "$SB" io --verify_backlog 4 --filename "$F"
check_exit "verify_only with a directory" 2 "$SB" io --verify crc32c --verify_only --directory "$R"
check_one_line "verify_only with a directory: one line" "needs a --filename"
check_exit "verify_only of a missing file" 1 "$SB" io --verify crc32c --verify_only --filename "$R/none"
check_one_line "verify_only of a missing file: one line" "does not exist"
check_exit "more I/Os in flight than blocks" 2 "$SB" io --rw randwrite --verify crc32c --size 16k \
    --ioengine io_uring --iodepth 8 --filename "$F"
check_one_line "more I/Os in flight than blocks: one line" "as many blocks"
# as many blocks as I/Os in flight: a write is drawn when its slot is free, so one block is
# always free for it (fio runs such a job too); time based, so a hang would show
check_exit "as many blocks as I/Os in flight: runs and verifies" 0 timeout 30 "$SB" io --rw randwrite \
    --verify crc32c --size 16k --ioengine io_uring --iodepth 4 --filename "$F" --time_based --runtime 1
check_exit "bad verify_backlog" 2 "$SB" io --verify crc32c --verify_backlog x --filename "$F"
finish
