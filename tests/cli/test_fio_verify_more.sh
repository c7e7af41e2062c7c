#!/bin/bash
# CLI tests of more of fio's verify options (src/io/verify/): verify_fatal with
# continue_on_error=verify (fio's: 0 goes on checking and counts every mismatch, 1 ends the
# job at the first, neither fails it; without continue_on_error a mismatch fails the job),
# compared with fio's total_err on the same damaged file; verify_pattern and
# buffer_pattern in fio's combined forms (decimal numbers, 0xHEX, "strings", %o for the
# block's offset), the bytes seen in the file and buffer_pattern's compared with fio's;
# verify_backlog_batch, the order of writes and checks compared with fio's (strace).
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
# verify_backlog_batch: after every verify_backlog writes a batch of checks, the oldest
# first; the order of writes and reads is fio's (strace; fio's final read-back aside)
for b in 2 4 8; do
    rm -f "$F"
    "$SB" io --filename="$F" --name=w --size=64k --bs=4k --rw=write --verify=crc32c --do_verify=0 \
        --verify_backlog=4 --verify_backlog_batch=$b >"$T/out" 2>&1
    want=$([ $b = 2 ] && echo 14 || echo 16)
    check "verify_backlog=4 verify_backlog_batch=$b: $want of 16 blocks checked while writing" \
        grep -q "verify (crc32c): $want blocks" "$T/out"
done
seq_of() { grep -E 'p(read|write)64\([0-9]+, .*, 4096, ' "$1" | awk '{print $2}' | cut -c2 | tr -d '\n' |
    sed 's/r*$//'; }
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
finish
