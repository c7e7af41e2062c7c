#!/bin/bash
# CLI tests of more of fio's verify options (src/io/verify/): verify_fatal with
# continue_on_error=verify (fio's: 0 goes on checking and counts every mismatch, 1 ends the
# job at the first, neither fails it; without continue_on_error a mismatch fails the job),
# compared with fio's total_err on the same damaged file; verify_pattern and
# buffer_pattern in fio's combined forms (decimal numbers, 0xHEX, "strings", %o for the
# block's offset), the bytes seen in the file and buffer_pattern's compared with fio's.
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
finish
