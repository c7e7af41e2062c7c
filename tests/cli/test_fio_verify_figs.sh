#!/bin/bash
# CLI tests of verify's read figures and checks beside fio 3.33's on the same parameters
# (src/io/verify/, src/io/report/aggregate.c): with numjobs and no group_reporting each
# thread's figures hold the read-back of its own writes (JSON, normal, terse), the group's
# their sum with group_reporting; verify=meta with verify_pattern checks the data against the
# pattern, as fio's (a flipped data byte found by both); a buffered job's verify phases on Linux
# AIO read through the engine, as fio's (strace: io_submit, not pread64); bsrange and bssplit writes
# are read back each at its own size, as fio's; verify_backlog's reads in a time-based write job
# have a read runtime of 0 ms, as fio's (bandwidth 0, no read lines in the normal output).
. "$(dirname "$0")/lib.sh"
fio_scratch

# TOOL ARGS...: runs storbench or fio on a job writing into $T/d (made empty), its JSON in
# $T/j.json; prints each JSON job's "reads/writes"
rw_of() {
    local who=$1; shift
    rm -rf "$T/d" && mkdir "$T/d"
    if [ "$who" = sb ]; then "$SB" io "$@" --output-format=json >"$T/j.json" 2>"$T/err"
    else fio "$@" --output-format=json 2>/dev/null | sed -n '/^{/,$p' >"$T/j.json"; fi
    jq -r '[.jobs[] | "\(.read.total_ios)/\(.write.total_ios)"] | join(" ")' "$T/j.json"
}

# numjobs=3, a file each: fio's threads each read back their own writes after the job, and
# report them in their own figures (16 reads of their 16 blocks); with group_reporting the
# group's 48
NJ=(--name=v --directory="$T/d" --numjobs=3 --size=64k --bs=4k --rw=write --verify=crc32c)
got=$(rw_of sb "${NJ[@]}")
check "numjobs=3 with verify: each thread's JSON has its 16 reads beside its 16 writes ($got)" \
    test "$got" = "16/16 16/16 16/16"
check "... each timed (read.clat_ns.N 16)" \
    test "$(jq -r '[.jobs[].read.clat_ns.N] | join(" ")' "$T/j.json")" = "16 16 16"
[ $have_fio = 1 ] && check "... as fio 3.33's" test "$(rw_of fio "${NJ[@]}")" = "$got"
got=$(rw_of sb "${NJ[@]}" --group_reporting)
check "with group_reporting: the group's 48 reads beside 48 writes ($got)" test "$got" = "48/48"
[ $have_fio = 1 ] && check "... as fio 3.33's" test "$(rw_of fio "${NJ[@]}" --group_reporting)" = "$got"
rm -rf "$T/d" && mkdir "$T/d"
"$SB" io "${NJ[@]}" >"$T/out" 2>"$T/err"
check "normal output: each thread's block has a read line of its 64 KiB" \
    test "$(grep -c 'read: IOPS=.*(64.0KiB/' "$T/out")" = 3
rm -rf "$T/d" && mkdir "$T/d"
"$SB" io "${NJ[@]}" --output-format=terse >"$T/out" 2>"$T/err"
check "terse: each thread's line reads 64 KiB (field 6)" \
    test "$(cut -d';' -f6 "$T/out" | tr '\n' ' ')" = "64 64 64 "
# with verify_backlog the checks during the job are each thread's too: all 16 blocks of each
# read by them (fio's), none left for the read-back
got=$(rw_of sb "${NJ[@]}" --verify_backlog=4)
check "numjobs=3 with verify_backlog=4: each thread's 16 reads ($got)" test "$got" = "16/16 16/16 16/16"
[ $have_fio = 1 ] && check "... as fio 3.33's" test "$(rw_of fio "${NJ[@]}" --verify_backlog=4)" = "$got"

# verify=meta with verify_pattern: fio's header-only check compares the data with the pattern
# too (its verify_io_u: VERIFY_HDR_ONLY checks the pattern when verify_pattern is set), so a
# data byte flipped past the header is found, by both; without verify_pattern meta checks the
# header only, and the same byte passes, in both
for who in sb fio; do
    [ $who = fio ] && [ $have_fio = 0 ] && continue
    if [ $who = sb ]; then run=("$SB" io --quiet); else run=(fio); fi
    for pat in 0x5a5a1234 ''; do
        MP=(--name=v --filename="$T/mp" --size=64k --bs=4k --rw=write --verify=meta)
        [ -n "$pat" ] && MP+=(--verify_pattern=$pat)
        rm -f "$T/mp"
        check_exit "$who: verify=meta${pat:+ verify_pattern=$pat}: clean" 0 "${run[@]}" "${MP[@]}"
        flip_byte "$T/mp" $((4096 * 5 + 2000))
        want=$([ -n "$pat" ] && echo 1 || echo 0)
        check_exit "$who: verify=meta${pat:+ verify_pattern=$pat}: a data byte flipped: exit $want" $want \
            "${run[@]}" "${MP[@]}" --verify_only
        [ $who = sb ] && [ -n "$pat" ] && check "... named at its block and byte" \
            grep -q "offset 20480: data: byte 2000 " "$T/err"
    done
done

# a buffered job on Linux AIO: its verify phases read through the engine at its depth, as fio's
# do_verify queues them (storbench's used to be pread()s one at a time). loops=3: each loop's
# 256 writes read back after it (768 reads, both tools); strace sees the two phases' 512
# reads in io_submit, one a call as the writes (fio's iodepth_batch_submit=1): 768 + 512 calls,
# and the pread64 calls are the read-back's after the last loop (256, one a block), not the
# phases' 512 more
AJ=(--name=v --filename="$T/va" --size=1m --bs=4k --rw=write --verify=crc32c --loops=3 --ioengine=libaio
    --iodepth=16)
got=$(rw_of sb "${AJ[@]}")
check "buffered libaio loops=3 with verify: 768 reads beside 768 writes ($got)" test "$got" = "768/768"
[ $have_fio = 1 ] && check "... as fio 3.33's" test "$(rw_of fio "${AJ[@]}")" = "$got"
if command -v strace >/dev/null; then
    rm -f "$T/va"
    strace -f -qq -e trace=pread64,io_submit -o "$T/st" "$SB_BIN" io --quiet "${AJ[@]}" >/dev/null 2>&1
    np=$(grep -c 'pread64(' "$T/st"); ns=$(grep -c 'io_submit(' "$T/st")
    check "... the phases' reads in io_submit, not pread64 ($ns io_submit, $np pread64)" \
        test "$ns" -ge 1280 -a "$np" -lt 512
else
    echo "ok # SKIP the system calls of the verify phases: strace missing"
fi

# bssplit and bsrange: the read-back after the job reads each write at its own size, as fio's
# verify reads each write it logged: sequential, as many reads as writes, the same bytes
# (storbench used to read blocks of the sizes' common unit, 256 of them); random, a read per
# write still there, no more reads than writes (fio's random map never overlaps two writes,
# storbench's random offsets of several sizes can, the later one then read, as it is the
# block's last write)
sizes_of() { # JSON RW: "ok" when the reads are the writes, else the figures
    jq -r --arg rw "$2" '.jobs[0] | .read.total_ios as $r | .write.total_ios as $w |
        if ($rw == "write" and $r == $w and .read.io_bytes == .write.io_bytes and $w < 256) or
           ($rw == "randwrite" and $r > 0 and $r <= $w and .read.io_bytes <= .write.io_bytes) then "ok"
        else "reads \($r) writes \($w)" end' "$1"
}
for sz in --bssplit=4k/30:8k/40:16k/30 --bsrange=4k-16k; do
    for rw in write randwrite; do
        SJ=(--name=v --filename="$T/vb" --size=1m --rw=$rw $sz --verify=crc32c)
        rm -f "$T/vb"
        rw_of sb "${SJ[@]}" >/dev/null
        check "$rw $sz with verify: a read per write, at its size ($(sizes_of "$T/j.json" $rw))" \
            test "$(sizes_of "$T/j.json" $rw)" = ok
        if [ $have_fio = 1 ]; then
            rm -f "$T/vb"
            rw_of fio "${SJ[@]}" >/dev/null
            check "... as fio 3.33's ($(sizes_of "$T/j.json" $rw))" test "$(sizes_of "$T/j.json" $rw)" = ok
        fi
    done
done

# verify_backlog in a job that does not read: fio's read runtime is its verify phases' only
# (backend.c updates it after do_io only for a job that reads). Time based on psync there is
# no verify phase: the checks' reads are counted, with a read runtime of 0 ms, so a bandwidth
# and IOPS of 0 (JSON and terse), and the normal output has no read lines (storbench gave them
# the job's runtime)
BL=(--name=v --filename="$T/vk" --size=1m --bs=4k --rw=write --verify=crc32c --verify_backlog=16 --time_based
    --runtime=1)
bl_of() { # TOOL FORMAT: the figures of the read direction, or the normal output's read lines
    rm -f "$T/vk"
    if [ "$1" = sb ]; then "$SB" io "${BL[@]}" --output-format="$2" >"$T/bl" 2>"$T/err"
    else fio "${BL[@]}" --output-format="$2" >"$T/bl" 2>/dev/null; fi
    case $2 in
    json) sed -n '/^{/,$p' "$T/bl" | jq -r '.jobs[0].read | "\(.total_ios > 0) \(.runtime) \(.bw_bytes) \(.iops)"' ;;
    terse) tail -n 1 "$T/bl" | awk -F';' '{print ($6 > 0), $7, $8, $9}' ;;
    normal) grep -cE '^ +read:|^ +READ:' "$T/bl" ;;
    esac
}
for fmt in json terse normal; do
    want=$([ $fmt = normal ] && echo 0 || echo "true 0 0 0")
    [ $fmt = terse ] && want="1 0 0 0"
    got=$(bl_of sb $fmt)
    check "time based verify_backlog on psync, $fmt: the checks' reads counted, read runtime 0 ($got)" \
        test "$got" = "$want"
    [ $have_fio = 1 ] && check "... as fio 3.33's" test "$(bl_of fio $fmt)" = "$want"
done
finish
