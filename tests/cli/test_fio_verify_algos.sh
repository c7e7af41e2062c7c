#!/bin/bash
# CLI tests of fio's verify algorithms beyond crc32c, xxhash, sha256 and pattern (issue 27;
# src/io/verify/algos.c): each writes blocks that read back clean and whose stored checksum
# is that algorithm's (recomputed here by Python's hashlib and zlib over the block with the
# checksum field zeroed, the digests longer than 32 bytes to their first 32); a changed
# data byte or checksum byte is found (exit 1, the field named); verify=meta, fio's
# header-only check, passes changed data but finds a changed header; verify_interval puts
# a header every N bytes and verify_pattern the pattern under each (seen in the file);
# fill_device writes until a small tmpfs is full, as fio's; verify_dump writes the bad block
# as read and as expected.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
F=$T/vf
command -v python3 >/dev/null && have_py=1 || have_py=0
[ $have_py = 1 ] || echo "ok # SKIP the recomputed checksums: python3 missing"
flip() { flip_byte "$F" "$1"; }
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
# verify_interval and verify_pattern: a header every 512 bytes, the pattern under each
rm -f "$F"
"$SB" io --quiet --filename="$F" --rw=write --bs=64k --size=256k --verify=meta --verify_interval=512 \
    --verify_pattern=0xaa555aa5 >/dev/null 2>"$T/err"
check "verify_interval=512 with verify_pattern=0xaa555aa5 runs" test $? = 0
if [ $have_py = 1 ]; then
    check "a header (SBV1) every 512 bytes, the pattern's bytes under each" python3 -c "
import sys
d = open('$F', 'rb').read()
ok = len(d) == 262144 and all(d[i:i + 4] == b'SBV1' and d[i + 96:i + 512] == bytes.fromhex('aa555aa5') * 104
                              for i in range(0, len(d), 512))
sys.exit(0 if ok else 1)"
fi
check_exit "and read back clean" 0 "$SB" io --quiet --filename="$F" --rw=read --bs=64k --size=256k \
    --verify=meta --verify_interval=512 --verify_pattern=0xaa555aa5 --verify_only
flip $((65536 + 512 * 3 + 16))
check_exit "a damaged header inside a block (its 4th piece) is found" 1 "$SB" io --quiet --filename="$F" \
    --rw=read --bs=64k --size=256k --verify=meta --verify_interval=512 --verify_pattern=0xaa555aa5 --verify_only
check "and named at the piece's offset" grep -q "offset 67072" "$T/err"
rm -f "$F"
"$SB" io --quiet --filename="$F" --rw=write --size=64k --verify_pattern='"ab"' >/dev/null 2>"$T/err"
check "verify_pattern alone makes verify=pattern (fio's): the data is the pattern" \
    test "$(od -An -c -j 96 -N 4 "$F" | tr -d ' ')" = abab
flip $((4096 + 700))
check_exit "and a changed data byte is found" 1 "$SB" io --quiet --filename="$F" --rw=read --size=64k \
    --verify_pattern='"ab"' --verify_only
check_exit "verify_interval not dividing bs is refused" 2 "$SB" io --filename="$F" --verify=md5 --bs=4k \
    --verify_interval=768
check_one_line "and named" "verify_interval"
check_exit "a verify_pattern that is not fio's syntax is refused" 2 "$SB" io --filename="$F" \
    --verify_pattern=12abc
check_one_line "and named" "verify_pattern"

# fill_device: a write job fills the file system, and the ENOSPC that ends it is no error
mkdir -p "$T/mnt"
if mount -t tmpfs -o size=2m tmpfs "$T/mnt" 2>/dev/null; then
    trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
    "$SB" io --output-format=json --name=f --filename="$T/mnt/fill" --rw=write --bs=64k --fill_device=1 \
        >sb.json 2>"$T/err"
    check "fill_device=1 on a 2 MiB tmpfs: exit 0" test $? = 0
    check "it wrote the 2 MiB, error 0" test "$(jq -r '.jobs[0] | "\(.write.io_bytes) \(.error)"' sb.json)" = "2097152 0"
    if command -v fio >/dev/null; then
        rm -f "$T/mnt/fill"
        fio --output-format=json --name=f --filename="$T/mnt/fill" --rw=write --bs=64k --fill_device=1 \
            >fio.json 2>/dev/null
        check "as fio's" test "$(jq -r '.jobs[0] | "\(.write.io_bytes) \(.error)"' fio.json)" = "2097152 0"
    fi
    umount "$T/mnt"
else
    echo "ok # SKIP fill_device on a small tmpfs: cannot mount one here (needs root)"
fi
check_exit "fill_device with a read job is refused" 2 "$SB" io --filename="$F" --rw=read --fill_device=1
check_one_line "and named" "fill_device"
# verify_dump: the bad block as read and as expected, to files in the working directory
rm -f "$F" vf.*
"$SB" io --quiet --filename="$F" --rw=write --size=64k --verify=md5 >/dev/null 2>&1
dd if="$F" of=orig bs=4096 skip=3 count=1 2>/dev/null
flip $((4096 * 3 + 1000))
check_exit "verify_dump: the mismatch still fails the job" 1 "$SB" io --quiet --filename="$F" --rw=read \
    --size=64k --verify=md5 --verify_only --verify_dump --verify_fatal=1 --verify_async=4
check "verify_dump: vf.12288.received is the block as read" \
    cmp -s vf.12288.received <(dd if="$F" bs=4096 skip=3 count=1 2>/dev/null)
check "verify_dump: vf.12288.expected is the block as written (header's fixed fields and data)" \
    bash -c 'cmp -s <(head -c 40 vf.12288.expected) <(head -c 40 orig) && cmp -s <(tail -c +97 vf.12288.expected) <(tail -c +97 orig)' 2>/dev/null
check "and stderr names both" test "$(grep -c 'verify_dump: wrote vf.12288' "$T/err")" = 2
rm -f vf.* orig
check_exit "verify=crc99 is refused" 2 "$SB" io --filename="$F" --verify=crc99
check_one_line "and named" "verify"
finish
