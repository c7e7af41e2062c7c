#!/bin/bash
# CLI tests of more of fio's verify options (src/io/verify/): verify_fatal with
# continue_on_error=verify (fio's: 0 goes on checking and counts every mismatch, 1 ends the
# job at the first, neither fails it; without continue_on_error a mismatch fails the job),
# compared with fio's total_err on the same damaged file; verify_pattern and
# buffer_pattern in fio's combined forms (decimal numbers, 0xHEX, "strings", %o for the
# block's offset), the bytes seen in the file and buffer_pattern's compared with fio's;
# verify_backlog_batch, the order of writes and checks compared with fio's (strace);
# verify_offset, the header moved into the block as fio's; trim_percentage and its
# options: blocks trimmed while writing, read back as zeros; verify_state_save and
# verify_state_load: a write cut short is checked as far as it went; experimental_verify;
# verify with bsrange and bssplit, and over several files per job, clean and with a
# flipped byte found, as fio's; and the verify phases inside a job, as fio's: after each
# loop (loops=N), and in turn with the writes of a time-based job on an asynchronous engine.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
F=$T/vf
command -v python3 >/dev/null && have_py=1 || have_py=0
command -v fio >/dev/null && have_fio=1 || have_fio=0
[ $have_py = 1 ] || echo "ok # SKIP the JSON checks: python3 missing"
[ $have_fio = 1 ] || echo "ok # SKIP the comparisons with fio: fio missing"
jget() { python3 -c "import json,sys;j=json.load(open(sys.argv[1]))['jobs'][0];print(j.get(sys.argv[2]))" "$@"; }
damage() { for o in 4296 12488; do printf 'XXXX' | dd of="$1" bs=1 seek=$o conv=notrunc 2>/dev/null; done; }
JOB=(--name=w --size=64k --bs=4k --rw=write --verify=crc32c --verify_only --output-format=json)

# verify_fatal: two damaged blocks read back
rm -f "$F"
"$SB" io --quiet --filename="$F" --name=w --size=64k --bs=4k --rw=write --verify=crc32c >/dev/null 2>&1
damage "$F"
check_exit "a mismatch fails the job without continue_on_error (verify_fatal=0 as 1)" 1 \
    "$SB" io --quiet --filename="$F" "${JOB[@]}" --verify_fatal=0
check "and names the first" grep -q "offset 4096" "$T/err"
for vf in 0 1; do
    check_exit "verify_fatal=$vf with continue_on_error=verify: the job does not fail" 0 \
        "$SB" io --quiet --filename="$F" "${JOB[@]}" --verify_fatal=$vf --continue_on_error=verify
    want=$((2 - vf))
    check "verify_fatal=$vf: $want mismatch(es) printed" test "$(grep -c 'verify error' "$T/err")" = $want
    if [ $have_py = 1 ]; then
        check "verify_fatal=$vf: total_err $want, first_error 84 (EILSEQ)" \
            test "$(jget "$T/out" total_err) $(jget "$T/out" first_error)" = "$want 84"
        if [ $have_fio = 1 ]; then
            rm -f "$T/fv"
            fio --name=w --filename="$T/fv" --size=64k --bs=4k --rw=write --verify=crc32c --do_verify=0 \
                >/dev/null 2>&1
            damage "$T/fv"
            fio --filename="$T/fv" "${JOB[@]}" --verify_fatal=$vf --continue_on_error=verify \
                >"$T/fio.json" 2>/dev/null
            sed -i -n '/^{/,$p' "$T/fio.json"
            check "verify_fatal=$vf: fio's total_err is the same" \
                test "$(jget "$T/fio.json" total_err)" = "$want"
        fi
    fi
done
# the same checked by a read job as it reads (in the I/O loop, not the read-back): fio's
# total_err and bytes read
if [ $have_py = 1 ]; then
    for vf in 0 1; do
        "$SB" io --quiet --filename="$F" --name=w --size=64k --bs=4k --rw=read --verify=crc32c \
            --verify_fatal=$vf --continue_on_error=verify --output-format=json >"$T/out" 2>/dev/null
        got="$(jget "$T/out" total_err) $(python3 -c "import json;print(json.load(open('$T/out'))['jobs'][0]['read']['io_bytes'])")"
        want=$([ $vf = 0 ] && echo "2 65536" || echo "1 8192")
        check "rw=read verify_fatal=$vf continue_on_error=verify: total_err and bytes read $want (fio's)" \
            test "$got" = "$want"
    done
fi
check_exit "ignore_error's verify list without EILSEQ: the mismatch fails the job" 1 \
    "$SB" io --quiet --filename="$F" "${JOB[@]}" --continue_on_error=verify --ignore_error=,,EIO
# patterns in fio's forms: buffer_pattern's file is fio's; verify_pattern's data past the
# 96-byte header is fio's verify=pattern block (the %o in each copy the block's offset)
for p in '0xff"abcd"-12' '-100xab"1"' '0xFF0X1' '66' '0xabc'; do
    rm -f "$F"
    "$SB" io --quiet --filename="$F" --name=w --size=16k --bs=4k --rw=write --buffer_pattern="$p" \
        >/dev/null 2>"$T/err"
    check "buffer_pattern=$p runs" test $? = 0
    if [ $have_fio = 1 ]; then
        rm -f "$T/fp"
        fio --name=w --filename="$T/fp" --size=16k --bs=4k --rw=write --buffer_pattern="$p" >/dev/null 2>&1
        check "buffer_pattern=$p: the file is fio's" cmp -s "$F" "$T/fp"
    fi
done
"$SB" io --quiet --filename="$F" --name=w --size=16k --bs=4k --rw=write \
    --buffer_pattern='0xff"abcd"-12' >/dev/null 2>&1
check "buffer_pattern=0xff\"abcd\"-12 is ff 61 62 63 64 f4 ff ff ff, repeated" \
    test "$(od -An -tx1 -N18 "$F" | tr -d ' \n')" = ff61626364f4ffffffff61626364f4ffffff
check_exit "buffer_pattern with %o is refused (fio's has no formats)" 2 "$SB" io --filename="$F" \
    --buffer_pattern='0xff%o'
check_one_line "and named" "buffer_pattern"
P='0xff%o"abcd"-12'
rm -f "$F"
check_exit "verify_pattern=$P: written and read back clean" 0 "$SB" io --quiet --filename="$F" \
    --name=w --size=64k --bs=4k --rw=write --verify_pattern="$P"
# block 5 (offset 20480 = 0x5000): past the header the 17-byte pattern goes on from byte 96
check "verify_pattern=$P: block 5's copy of the pattern at byte 102 carries 0x5000" \
    test "$(od -An -tx1 -j$((5 * 4096 + 102)) -N17 "$F" | tr -d ' \n')" = ff005000000000000061626364f4ffffff
check_exit "verify_only with the same pattern: clean" 0 "$SB" io --quiet --filename="$F" --name=w \
    --size=64k --bs=4k --rw=read --verify_only --verify_pattern="$P"
check_exit "verify_only with another: the mismatch is found" 1 "$SB" io --quiet --filename="$F" \
    --name=w --size=64k --bs=4k --rw=read --verify_only --verify_pattern='0xff%o"abce"-12'
check "and named" grep -q "offset 0: data: byte 97" "$T/err"
if [ $have_fio = 1 ]; then
    rm -f "$T/fp"
    fio --name=w --filename="$T/fp" --size=64k --bs=4k --rw=write --verify=pattern \
        --verify_pattern="$P" >/dev/null 2>&1
    same=1
    for b in 0 5 15; do
        cmp -s <(dd if="$F" bs=4096 skip=$b count=1 2>/dev/null | tail -c +97) \
            <(dd if="$T/fp" bs=4096 skip=$b count=1 2>/dev/null | tail -c +97) || same=0
    done
    check "verify_pattern=$P: blocks 0, 5, 15 past the header are fio's" test $same = 1
fi
check_exit "a pattern of 513 bytes is refused" 2 "$SB" io --filename="$F" \
    --verify_pattern=0x$(printf 'ab%.0s' $(seq 513))
check_one_line "and named" "verify_pattern"
check_exit "a decimal beyond the int range is refused" 2 "$SB" io --filename="$F" --buffer_pattern=4294967296
check_one_line "and named" "buffer_pattern"
# "r" or "w" per 4 KiB pread/pwrite in strace -f's FILE; a call another thread's line cut in
# two is one line with its size ("pwrite64(..., 4096, 0 <unfinished ...>" or "<... pread64
# resumed>..., 4096, 0) = 4096": a pread's buffer is printed when it returns)
seq_of() { grep -E '(p(read|write)64\([0-9]+, |<\.\.\. p(read|write)64 resumed>).*, 4096, ' "$1" |
    awk 'match($0, /p(read|write)64/) { printf "%s", substr($0, RSTART + 1, 1) }' | sed 's/r*$//'; }
# verify_backlog_batch: after every verify_backlog writes a batch of checks, the oldest
# first; the order of writes and reads is fio's (strace; the final read-back aside). Each
# write is read once, by a check or by the read-back after the job, which leaves what the
# checks read, as fio's verify phase reads only what its checks left (it read them twice)
reads() { grep -cE '(pread64\([0-9]+, |<\.\.\. pread64 resumed>).*, 4096, ' "$1"; }
if command -v strace >/dev/null; then
    for b in 2 4 8; do
        rm -f "$F"
        strace -f -o "$T/st" "$SB_BIN" io --quiet --filename="$F" --name=w --size=64k --bs=4k --rw=write \
            --verify=crc32c --verify_backlog=4 --verify_backlog_batch=$b >/dev/null 2>&1
        check "verify_backlog=4 verify_backlog_batch=$b: each of the 16 blocks read once ($(reads "$T/st"))" \
            test "$(reads "$T/st")" = 16
    done
else
    echo "ok # SKIP the reads of verify_backlog: strace missing"
fi
# fio's figures: the checks' reads are the job's reads; with do_verify=0 fio keeps no writes
# to check, so verify_backlog does nothing (a warning here)
vreads() { jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios)"'; }
for dv in 1 0; do
    rm -f "$F"
    got=$("$SB" io --name=v --filename="$F" --rw=write --size=8m --bs=4k --verify=crc32c --verify_backlog=64 \
        --do_verify=$dv --output-format=json 2>"$T/err" | vreads)
    want=$([ $dv = 1 ] && echo "2048 2048" || echo "0 2048")
    check "verify_backlog=64 do_verify=$dv on 8 MiB of 4k: reads and writes $want ($got)" test "$got" = "$want"
    if [ $have_fio = 1 ]; then
        rm -f "$F"
        f=$(fio --name=v --filename="$F" --rw=write --size=8m --bs=4k --verify=crc32c --verify_backlog=64 \
            --do_verify=$dv --output-format=json 2>/dev/null | vreads)
        check "... as fio's ($f)" test "$f" = "$got"
    fi
done
check "verify_backlog with do_verify=0: one warning that it does nothing" grep -q "verify_backlog has no effect" "$T/err"
if [ $have_fio = 1 ] && command -v strace >/dev/null; then
    for b in 2 8; do
        rm -f "$F" "$T/fp"
        strace -f -o "$T/st" "$SB_BIN" io --quiet --filename="$F" --name=w --size=64k --bs=4k --rw=write \
            --verify=crc32c --verify_backlog=4 --verify_backlog_batch=$b >/dev/null 2>&1
        strace -f -o "$T/ft" fio --name=w --filename="$T/fp" --size=64k --bs=4k --rw=write \
            --verify=crc32c --verify_backlog=4 --verify_backlog_batch=$b >/dev/null 2>&1
        check "verify_backlog_batch=$b: writes and checks in fio's order ($(seq_of "$T/st" | head -c 20)...)" \
            test "$(seq_of "$T/st")" = "$(seq_of "$T/ft")" -a -n "$(seq_of "$T/st")"
    done
else
    echo "ok # SKIP verify_backlog_batch's order against fio's: fio or strace missing"
fi
check_exit "verify_backlog_batch without verify_backlog is refused" 2 "$SB" io --filename="$F" \
    --verify=crc32c --verify_backlog_batch=2
check_one_line "and named" "verify_backlog_batch"
# verify_offset: the header sits that far into each block (fio's too: its magic 0xacca)
rm -f "$F"
check_exit "verify_offset=1024: written and read back clean" 0 "$SB" io --quiet --filename="$F" \
    --name=w --size=64k --bs=4k --rw=randwrite --verify=crc32c --verify_offset=1024
check "the header's magic (SBV1) is at byte 1024 of block 3, not at 0" \
    test "$(od -An -tx1 -j$((4096 * 3 + 1024)) -N4 "$F" | tr -d ' ')" = 53425631 -a \
    "$(od -An -tx1 -j$((4096 * 3)) -N4 "$F" | tr -d ' ')" != 53425631
check_exit "verify_only with the same verify_offset: clean" 0 "$SB" io --quiet --filename="$F" \
    --name=w --size=64k --bs=4k --rw=read --verify=crc32c --verify_only --verify_offset=1024
check_exit "verify_only without it: the header is not where it looks" 1 "$SB" io --quiet \
    --filename="$F" --name=w --size=64k --bs=4k --rw=read --verify=crc32c --verify_only
check "and named (magic)" grep -q "offset 0: magic" "$T/err"
if [ $have_fio = 1 ]; then
    rm -f "$T/fp"
    fio --name=w --filename="$T/fp" --size=64k --bs=4k --rw=write --verify=crc32c --verify_offset=1024 \
        >/dev/null 2>&1
    check "fio's header moves alike (its magic ca ac at byte 1024)" \
        test "$(od -An -tx1 -j$((4096 * 3 + 1024)) -N2 "$T/fp" | tr -d ' ')" = caac
fi
rm -f "$F"
check_exit "verify_offset with verify_interval: a header 256 bytes into each 512" 0 "$SB" io --quiet \
    --filename="$F" --name=w --size=64k --bs=4k --rw=randwrite --verify=md5 --verify_interval=512 \
    --verify_offset=256
check "... the magic at 512 + 256" test "$(od -An -tx1 -j$((4096 * 3 + 768)) -N4 "$F" | tr -d ' ')" = 53425631
check_exit "verify_offset inside the header is refused" 2 "$SB" io --filename="$F" --verify=md5 \
    --verify_offset=64
check_one_line "and named" "verify_offset"
# trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero: written blocks
# trimmed while the job runs (holes in the file), then read back as zeros
zeros() { python3 -c "
import sys; d=open(sys.argv[1],'rb').read()
print(sum(1 for i in range(0, len(d), 4096) if not any(d[i:i + 4096])))" "$1"; }
vget() { python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['jobs'][0]['storbench']['verify'][sys.argv[2]])" "$@"; }
TRIM=(--name=w --size=256k --bs=4k --rw=write --verify=crc32c --trim_backlog=8 --output-format=json)
if [ $have_py = 1 ]; then
    for c in "100 0 1 64 64 64" "100 2 1 16 16 64" "100 0 0 64 0 0"; do
        set -- $c
        rm -f "$F"
        args=(--trim_percentage=$1 --trim_verify_zero=$3)
        [ "$2" != 0 ] && args+=(--trim_backlog_batch=$2)
        check_exit "${args[*]} --trim_backlog=8: runs clean" 0 \
            "$SB" io --quiet --filename="$F" "${TRIM[@]}" "${args[@]}"
        check "... $4 zero blocks in the file, $4 trimmed, $5 read back as zeros, $6 checked" \
            test "$(zeros "$F") $(vget "$T/out" blocks_trimmed) $(vget "$T/out" trimmed_checked) $(vget "$T/out" blocks_checked)" = "$4 $4 $5 $6"
    done
    rm -f "$F"
    "$SB" io --quiet --filename="$F" "${TRIM[@]}" --trim_percentage=50 >"$T/out" 2>&1
    n=$(vget "$T/out" blocks_trimmed)
    check "trim_percentage=50: some blocks trimmed, not all ($n of 64), each a zero block" \
        test "$n" -gt 0 -a "$n" -lt 64 -a "$(zeros "$F")" = "$n"
    if [ $have_fio = 1 ]; then
        rm -f "$T/fp"
        fio --filename="$T/fp" "${TRIM[@]}" --trim_percentage=100 >/dev/null 2>&1
        frc=$?
        check "fio with the same options: also clean, with zero blocks ($(zeros "$T/fp"))" \
            test $frc = 0 -a "$(zeros "$T/fp")" -gt 0
    fi
fi
check_exit "trim_percentage without trim_backlog is refused" 2 "$SB" io --filename="$F" --verify=crc32c \
    --trim_percentage=10
check_one_line "and named" "trim_backlog"
check_exit "trim_percentage without verify is refused" 2 "$SB" io --filename="$F" --trim_percentage=10 \
    --trim_backlog=2
check_one_line "and named" "trim_percentage"
# verify_state_save / verify_state_load: a write cut short by a trigger leaves its table in
# --aux-path; the check that loads it checks exactly the blocks written
if [ $have_py = 1 ]; then
    mkdir -p "$T/aux" "$T/sd"
    cd "$T/sd" || exit 1 # fio's own runs above left their state files in $T
    rm -f "$F"
    SJOB=(--name=w --size=16m --bs=4k --verify=crc32c --aux-path="$T/aux")
    check_exit "verify_state_save: a write cut at 1 s by --trigger-timeout" 0 "$SB" io --quiet \
        --filename="$F" "${SJOB[@]}" --rw=write --verify_state_save --rate=1m --time_based \
        --runtime=60 --trigger-timeout=1 --output-format=json
    w=$(python3 -c "import json;print(json.load(open('$T/out'))['jobs'][0]['write']['io_bytes'] // 4096)")
    check "the state file is in --aux-path (fio's name: local-w-0-verify.state)" \
        test -s "$T/aux/local-w-0-verify.state" -a "$w" -gt 0 -a "$w" -lt 4096
    check_exit "verify_only without it fails at the first block never written" 1 "$SB" io --quiet \
        --filename="$F" "${SJOB[@]}" --rw=read --verify_only
    check "  (block $w)" grep -q "offset $((w * 4096)): magic" "$T/err"
    check_exit "verify_only with verify_state_load: clean" 0 "$SB" io --quiet --filename="$F" \
        "${SJOB[@]}" --rw=read --verify_only --verify_state_load --output-format=json
    check "  exactly the $w blocks written are checked" test "$(vget "$T/out" blocks_checked)" = "$w"
    flip_byte "$F" $((4096 * (w / 2) + 500))
    check_exit "a damaged written block is found" 1 "$SB" io --quiet --filename="$F" "${SJOB[@]}" \
        --rw=read --verify_only --verify_state_load
    check "  and named" grep -q "offset $((4096 * (w / 2))): data" "$T/err"
    check_exit "a state file of another job (bs) is refused" 2 "$SB" io --quiet --filename="$F" \
        "${SJOB[@]}" --bs=8k --rw=read --verify_only --verify_state_load
    check_one_line "and named" "verify_state_load"
    check "no state file is left in the working directory" test -z "$(ls "$T"/sd 2>/dev/null)"
    cd "$T" || exit 1
fi
check_exit "verify_state_load in a write job is refused" 2 "$SB" io --filename="$F" --verify=crc32c \
    --rw=write --verify_state_load
check_one_line "and named" "verify_state_load"
# experimental_verify: 0 (fio's default) runs; 1, fio's replay, is refused with its reason
rm -f "$F"
check_exit "experimental_verify=0 runs" 0 "$SB" io --quiet --filename="$F" --size=64k --rw=write \
    --verify=crc32c --experimental_verify=0
check_exit "experimental_verify=1 is refused" 2 "$SB" io --filename="$F" --size=64k --rw=write \
    --verify=crc32c --experimental_verify=1
check_one_line "and named" "experimental_verify"
# verify with sizes of several kinds (bsrange, bssplit, bsrange=READ,WRITE): blocks of the
# sizes' common unit, each with a header of its own (fio's verify_interval of the smallest
# size). storbench's own writes pass, sequential and random, with verify_backlog too; a
# byte flipped between the write and a verify_only run is found, by fio as by storbench
vv() { vget "$T/out" "$1"; }
VAR=(--name=v --size=1m --verify=crc32c --ioengine=libaio --iodepth=4 --output-format=json)
for sz in --bsrange=4k-16k --bssplit=4k/30:8k/40:16k/30 --bsrange=1k-4k,8k-8k; do
    for rw in write randwrite randrw; do
        rm -f "$F"
        check_exit "verify $sz rw=$rw: clean" 0 "$SB" io --quiet --filename="$F" "${VAR[@]}" "$sz" --rw=$rw
        if [ $have_py = 1 ] && [ $rw = write ]; then
            check "... the whole file read back, no error" test "$(vv bytes_checked) $(vv errors)" = "1048576 0"
        elif [ $have_py = 1 ]; then
            check "... what was written read back ($(vv bytes_checked) bytes), no error" \
                test "$(vv bytes_checked)" -gt 0 -a "$(vv errors)" = 0
        fi
    done
done
for rw in write randwrite; do
    rm -f "$F"
    check_exit "verify bssplit rw=$rw verify_backlog=8: clean" 0 "$SB" io --quiet --filename="$F" "${VAR[@]}" \
        --bssplit=4k/30:8k/40:16k/30 --rw=$rw --verify_backlog=8
    [ $have_py = 1 ] && [ $rw = write ] &&
        check "... each block checked once, by a backlog check or by the read-back, which leaves those ($(vv bytes_checked) bytes)" \
            test "$(vv bytes_checked)" = 1048576
done
rm -f "$F"
check_exit "verify bsrange=4k-16k with verify_interval=1k: clean" 0 "$SB" io --quiet --filename="$F" \
    "${VAR[@]}" --bsrange=4k-16k --rw=randwrite --verify_interval=1k
check_exit "verify with bsrange and bs_unaligned: exit 2" 2 "$SB" io --filename="$F" --verify=crc32c \
    --bsrange=4k-16k --bs_unaligned --rw=write --size=1m
check_one_line "... one line" "512"
# a byte flipped in the 11th 4 KiB block after a sequential bssplit write
for who in sb fio; do
    [ $who = fio ] && [ $have_fio = 0 ] && continue
    rm -f "$T/vs"
    VS=(--name=v --filename="$T/vs" --size=1m --rw=write --bssplit=4k/30:8k/40:16k/30 --verify=crc32c)
    if [ $who = sb ]; then run=("$SB" io --quiet); else run=(fio); fi
    check_exit "$who: bssplit write with verify: clean" 0 "${run[@]}" "${VS[@]}"
    check_exit "$who: verify_only of the same: clean" 0 "${run[@]}" "${VS[@]}" --verify_only
    flip_byte "$T/vs" $((4096 * 10 + 500))
    check_exit "$who: verify_only after a byte was flipped: the mismatch is found" 1 "${run[@]}" "${VS[@]}" \
        --verify_only
    [ $who = sb ] && check "... named at its block" grep -q "offset 40960: data" "$T/err"
done
# several files per job (wowscpp-basic-verify.fio names eight devices): a table per file,
# each I/O checked against its own file's; a byte flipped in the second file is found
# there, by storbench and by fio
for who in sb fio; do
    [ $who = fio ] && [ $have_fio = 0 ] && continue
    rm -f "$T/m1" "$T/m2" "$T/m3"
    VM=(--name=v --filename="$T/m1:$T/m2:$T/m3" --size=3m --rw=write --bsrange=4k-16k --verify=crc32c)
    if [ $who = sb ]; then run=("$SB" io --quiet); else run=(fio); fi
    check_exit "$who: three files, bsrange, verify: clean" 0 "${run[@]}" "${VM[@]}" --ioengine=libaio \
        --iodepth=4 --verify_backlog=8
    check_exit "$who: verify_only of the same: clean" 0 "${run[@]}" "${VM[@]}" --verify_only
    flip_byte "$T/m2" $((4096 * 7 + 300))
    check_exit "$who: verify_only after a byte of the second file was flipped: found" 1 "${run[@]}" "${VM[@]}" \
        --verify_only
    [ $who = sb ] && check "... named in that file at its block" grep -q "m2: offset 28672: data" "$T/err"
done
rm -f "$T/m1" "$T/m2" "$T/m3"
check_exit "three files, randrw with verify on 2 threads: clean" 0 "$SB" io --quiet --name=v \
    --filename="$T/m1:$T/m2:$T/m3" --size=3m --rw=randrw --bssplit=4k/50:16k/50 --verify=md5 --numjobs=2 \
    --ioengine=libaio --iodepth=4
check_exit "trim_percentage with three files: exit 2" 2 "$SB" io --name=v --filename="$T/m1:$T/m2:$T/m3" \
    --size=3m --rw=write --verify=crc32c --trim_percentage=10 --trim_backlog=4
check_one_line "... one line" "trim_percentage"

# verify's read-back is among the job's reads, as fio reports its verify phase: one read
# per written block, timed (clat percentiles), with a read runtime of its own
vreads() { # TOOL: "reads bytes has-percentiles runtime>0 writes" of a 4 MiB write job with verify
    rm -f "$T/vr"
    if [ "$1" = sb ]; then
        "$SB" io --name=v --filename="$T/vr" --rw=write --size=4m --verify=crc32c --output-format=json >"$T/vr.json" 2>/dev/null
    else
        fio --name=v --filename="$T/vr" --rw=write --size=4m --verify=crc32c --output-format=json >"$T/vr.json" 2>/dev/null
    fi
    python3 -c 'import json,sys; t=open(sys.argv[1]).read(); j=json.loads(t[t.index("{"):])["jobs"][0]; r=j["read"]
print(r["total_ios"], r["io_bytes"], "percentile" in r["clat_ns"], r["runtime"] > 0, j["write"]["total_ios"])' "$T/vr.json"
}
got=$(vreads sb)
check "write + verify: 1024 reads of 4 MiB, timed, in a runtime of their own, beside 1024 writes ($got)" \
    test "$got" = "1024 4194304 True True 1024"
if command -v fio >/dev/null; then
    check "... as fio 3.33's ($(vreads fio))" test "$(vreads fio)" = "$got"
fi
# time based: fio skips the verify phase once the runtime is spent; storbench still checks
# the blocks (its own read-back), and neither reports reads
"$SB" io --name=v --filename="$T/vr" --rw=randwrite --size=1m --verify=crc32c --time_based --runtime=0.5 \
    --output-format=json >"$T/vr.json" 2>/dev/null
check "time based write + verify: no reads in the figures ($(jq '.jobs[0].read.total_ios' "$T/vr.json"))" \
    test "$(jq '.jobs[0].read.total_ios' "$T/vr.json")" = 0

# loops=N: fio verifies after each loop (its thread_main: do_io, then do_verify, loop after
# loop), so each loop's writes are read back once: 3 x 2048 reads beside 3 x 2048 writes, on a
# synchronous engine and an asynchronous one at its depth (storbench used to read back only the
# last loop)
lrun() { # TOOL ARGS...: "reads writes" of the job's JSON
    local who=$1; shift
    rm -f "$T/vl"
    if [ "$who" = sb ]; then "$SB" io "$@" --output-format=json >"$T/vl.json" 2>"$T/err"
    else fio "$@" --output-format=json 2>/dev/null | sed -n '/^{/,$p' >"$T/vl.json"; fi
    jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios)"' "$T/vl.json"
}
for e in psync libaio; do
    LJ=(--name=v --filename="$T/vl" --size=8m --bs=4k --verify=crc32c --loops=3 --ioengine=$e)
    [ $e = libaio ] && LJ+=(--rw=randwrite --iodepth=4 --direct=1) || LJ+=(--rw=write)
    got=$(lrun sb "${LJ[@]}")
    check "loops=3 with verify on $e: each loop's 2048 writes read back after it ($got)" test "$got" = "6144 6144"
    [ $have_fio = 1 ] && check "... as fio 3.33's" test "$(lrun fio "${LJ[@]}")" = "$got"
done
check "... the reads timed (read.clat_ns.percentile), in a read runtime of their own" \
    test "$(jq '.jobs[0].read | (.clat_ns.percentile != null) and .runtime > 0' "$T/vl.json")" = true

# time based on an asynchronous engine: fio's write phase ends once size bytes are queued, it
# reads them back, and writes again, until the runtime is spent; its reads are in the JSON's
# read figures (timed: read.clat_ns.percentile). So every write phase but the last is read
# back whole (a phase is size/bs = 256 writes): writes - 256 <= reads <= writes, both tools.
# On psync (above) fio's write phase never ends by bytes (a completed I/O is not counted)
# and it never verifies.
tphases() { # JSON: "ok" when the reads are whole write phases read back, else the figures
    jq -r '.jobs[0] | .read.total_ios as $r | .write.total_ios as $w |
        if $r >= 256 and $r <= $w and $r + 256 >= $w and .read.clat_ns.percentile != null then "ok"
        else "reads \($r) writes \($w)" end' "$1"
}
for e in libaio io_uring; do
    TJ=(--name=v --filename="$T/vt" --rw=randwrite --bs=4k --size=1m --verify=crc32c --time_based --runtime=1
        --ioengine=$e --iodepth=8 --output-format=json)
    rm -f "$T/vt"
    "$SB" io "${TJ[@]}" >"$T/vt.json" 2>"$T/err"
    check "time based verify on $e: write and verify phases in turn, the reads timed ($(tphases "$T/vt.json"))" \
        test "$(tphases "$T/vt.json")" = ok
    if [ $have_fio = 1 ]; then
        rm -f "$T/vt"
        fio "${TJ[@]}" 2>/dev/null | sed -n '/^{/,$p' >"$T/vt.json"
        check "... as fio 3.33's ($(tphases "$T/vt.json"))" test "$(tphases "$T/vt.json")" = ok
    fi
done
finish
