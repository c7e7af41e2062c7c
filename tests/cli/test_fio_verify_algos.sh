#!/bin/bash
# CLI tests of fio's verify algorithms beyond crc32c, xxhash, sha256 and pattern (issue 27;
# src/io/verify_algos.c): each writes blocks that read back clean and whose stored checksum
# is that algorithm's (recomputed here by Python's hashlib and zlib over the block with the
# checksum field zeroed, the digests longer than 32 bytes to their first 32); a changed
# data byte or checksum byte is found (exit 1, the field named); verify=meta, fio's
# header-only check, passes changed data but finds a changed header.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
F=$T/vf
command -v python3 >/dev/null && have_py=1 || have_py=0
[ $have_py = 1 ] || echo "ok # SKIP the recomputed checksums: python3 missing"
flip() { printf '\xa5' | dd of="$F" bs=1 seek="$1" conv=notrunc 2>/dev/null; }
for a in crc64 crc32 crc16 crc7 md5 sha1 sha224 sha384 sha512 sha3-224 sha3-256 sha3-384 sha3-512; do
    rm -f "$F"
    "$SB" io --quiet --filename="$F" --rw=randwrite --size=64k --verify=$a >/dev/null 2>"$T/err"
    check "verify=$a: written and read back clean" test $? = 0
    if [ $have_py = 1 ] && [ "$a" != crc64 ] && [ "$a" != crc16 ] && [ "$a" != crc7 ]; then
        python3 - "$F" "$a" <<'PY' >"$T/py" 2>&1
import hashlib, sys, zlib
data = open(sys.argv[1], 'rb').read(4096)
algo = sys.argv[2]
stored = data[56:88]                        # the header's csum field (io/verify.h)
block = data[:56] + bytes(32) + data[88:]
if algo == 'crc32':
    want = zlib.crc32(block).to_bytes(4, 'little')
else:
    want = hashlib.new(algo.replace('-', '_'), block).digest()[:32]
sys.exit(0 if stored[:len(want)] == want and not any(stored[len(want):]) else 1)
PY
        check "verify=$a: the stored checksum is $a's" test $? = 0
    fi
    flip $((4096 * 3 + 56))
    check_exit "verify=$a: a changed checksum byte is found" 1 "$SB" io --quiet --filename="$F" --rw=read \
        --size=64k --verify=$a --verify_only
    check "and named" grep -q "offset 12288: checksum: expected" "$T/err"
    flip $((4096 * 5 + 2000))
    check_exit "verify=$a: a changed data byte is found" 1 "$SB" io --quiet --filename="$F" --rw=read \
        --size=64k --verify=$a --verify_only --verify_backlog=0
done
rm -f "$F"
"$SB" io --quiet --filename="$F" --rw=write --size=64k --verify=meta >/dev/null 2>"$T/err"
check "verify=meta: written and read back clean" test $? = 0
flip $((4096 * 2 + 3000))
check_exit "verify=meta checks the header only: a changed data byte passes (fio's meta)" 0 \
    "$SB" io --quiet --filename="$F" --rw=read --size=64k --verify=meta --verify_only
flip $((4096 * 6 + 16))
check_exit "verify=meta: a changed header (its offset) is found" 1 "$SB" io --quiet --filename="$F" \
    --rw=read --size=64k --verify=meta --verify_only
check "and named" grep -q "offset 24576" "$T/err"
check_exit "verify=crc99 is refused" 2 "$SB" io --filename="$F" --verify=crc99
check_one_line "and named" "verify"
finish
