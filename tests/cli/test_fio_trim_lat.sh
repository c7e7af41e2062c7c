#!/bin/bash
# CLI tests of fio's trims (src/io/job/trim.c) and of the submission latency split
# (src/io/loop/loop.c, fio's slat/clat/lat): rw=trim/randtrim/trimwrite on a file punch holes
# and fill fio's "trim" section (JSON, normal), trimwrite writes every block it trims;
# on a loop device (root) the same jobs go to BLKDISCARD and come out as fio 3.33's (fio
# 3.33 trims block devices only: on a file it fails with ENOTTY); a file system without
# hole punching (ramfs) is refused with one line naming EOPNOTSUPP (exit 1). A file that
# exists is trimmed only when given up (--destroy-data-on: docs/safety.md). io_uring
# jobs carry slat_ns and lat_ns figures, psync ones fio's slat N 0; the percentile
# options add fio's keys. Without fio, root or losetup the comparisons skip, visibly.
. "$(dirname "$0")/lib.sh"

have_fio=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1
jqv() { jq -r "$1" "$2" 2>/dev/null; }
# jq -e on an empty file is true: a file must hold a document for a check to pass
jqe() { [ -s "${*: -1}" ] && jq -e "$@" >/dev/null 2>&1; }

# ---- trims on a file: holes punched, the trim section ----
"$SB_BIN" io --filename="$T/f" --size=1m --rw=write >/dev/null 2>&1
check_exit "rw=trim on a file runs" 0 "$SB_BIN" io --name=t --filename="$T/f" --size=1m --bs=64k \
    --rw=trim --output-format=json --destroy-data-on "$T/f"
check "trim: 1 MiB in the trim section, 16 trims" \
    test "$(jqv '.jobs[0].trim | "\(.io_bytes) \(.total_ios) \(.clat_ns.N)"' "$T/out")" = "1048576 16 16"
check "trim: nothing read or written" test "$(jqv '.jobs[0].read.io_bytes + .jobs[0].write.io_bytes' "$T/out")" = 0
check "trim: the file keeps its size and lost its blocks" \
    test "$(stat -c %s "$T/f")" = 1048576 -a "$(du -k "$T/f" | cut -f1)" -lt 64
check_exit "rw=randtrim runs" 0 "$SB_BIN" io --name=t --filename="$T/f" --size=1m --bs=64k \
    --rw=randtrim --output-format=normal --destroy-data-on "$T/f"
check "randtrim: fio's trim: line and TRIM: group line" \
    sh -c "grep -q '^  trim: IOPS=' '$T/out' && grep -q '^   TRIM: bw=' '$T/out'"
check_exit "rw=trimwrite runs" 0 "$SB_BIN" io --name=t --filename="$T/f" --size=1m --bs=64k \
    --rw=trimwrite --output-format=json --destroy-data-on "$T/f"
check "trimwrite: every block trimmed and written" \
    test "$(jqv '.jobs[0] | "\(.trim.io_bytes) \(.write.io_bytes)"' "$T/out")" = "1048576 1048576"
check "trimwrite: the file is whole again" test "$(du -k "$T/f" | cut -f1)" -ge 1024
check_exit "verify with a trim is refused" 2 "$SB_BIN" io --filename="$T/f" --size=1m --rw=trim \
    --verify=crc32c
check_one_line "... in one line naming verify and the trim" "verify with rw=trim"

# ---- a block device: BLKDISCARD, fio's figures, and a device without discard ----
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && truncate -s 16m "$T/img" &&
    L=$(losetup -f --show "$T/img" 2>/dev/null); then
    trap 'losetup -d "$L" 2>/dev/null; rm -rf "$T"' EXIT
    check_exit "trimwrite on a loop device runs" 0 "$SB_BIN" io --name=t --filename="$L" --size=1m \
        --bs=64k --rw=trimwrite --output-format=json
    sb=$(jqv '.jobs[0] | [.read.total_ios, .write.total_ios, .trim.total_ios, .trim.io_bytes] | join(" ")' "$T/out")
    if [ $have_fio = 1 ]; then
        fio --name=t --filename="$L" --size=1m --bs=64k --rw=trimwrite --output-format=json 2>/dev/null |
            sed -n '/^{/,$p' >"$T/fio.json"
        fi=$(jqv '.jobs[0] | [.read.total_ios, .write.total_ios, .trim.total_ios, .trim.io_bytes] | join(" ")' "$T/fio.json")
        check "trimwrite's I/Os per direction are fio's ($sb; fio $fi)" test -n "$fi" -a "$sb" = "$fi"
        jq -r '.jobs[0].trim | paths | map(tostring) | join(".")' "$T/fio.json" | grep -v percentile | sort >"$T/fk"
        jq -r '.jobs[0].trim | paths | map(tostring) | join(".")' "$T/out" | sort >"$T/sk"
        check "the trim section has fio's keys" test -s "$T/fk" -a -z "$(comm -23 "$T/fk" "$T/sk")"
    else
        check "trimwrite on a loop device: 16 writes, 16 trims" test "$sb" = "0 16 16 1048576"
    fi
    losetup -d "$L"
else
    echo "ok # SKIP needs root, losetup and a free loop device: no block device to trim"
fi
# a file system without hole punching (ramfs, root): refused before the run
if [ "$(id -u)" = 0 ] && mkdir -p "$T/ram" && mount -t ramfs none "$T/ram" 2>/dev/null; then
    trap 'umount "$T/ram" 2>/dev/null; rm -rf "$T"' EXIT
    dd if=/dev/zero of="$T/ram/f" bs=64k count=16 status=none
    check_exit "a target without discard (ramfs): refused, exit 1" 1 "$SB_BIN" io --filename="$T/ram/f" \
        --size=1m --rw=trim --destroy-data-on "$T/ram/f"
    check_one_line "... in one line naming EOPNOTSUPP" EOPNOTSUPP
    umount "$T/ram"
else
    echo "ok # SKIP needs root and ramfs: no file system without discard to try"
fi

# ---- slat, clat, lat: an asynchronous engine's split, fio's keys ----
"$SB_BIN" io --filename="$T/g" --size=1m --rw=write >/dev/null 2>&1
if "$SB_BIN" io --filename="$T/g" --size=64k --ioengine=io_uring --rw=read >/dev/null 2>&1; then
    check_exit "io_uring with slat_percentiles and lat_percentiles runs" 0 "$SB_BIN" io --name=t \
        --filename="$T/g" --size=1m --bs=4k --rw=randread --ioengine=io_uring --iodepth=4 \
        --slat_percentiles=1 --lat_percentiles=1 --output-format=json
    cp "$T/out" "$T/sb.json"
    check "io_uring: slat_ns has one figure per I/O" test "$(jqv '.jobs[0].read.slat_ns.N' "$T/out")" = 256
    check "io_uring: lat is slat + clat (mean lat > mean clat, min lat >= min slat)" \
        jqe '.jobs[0].read | .lat_ns.mean > .clat_ns.mean and .lat_ns.min >= .slat_ns.min' "$T/out"
    check "slat_percentiles, lat_percentiles: their percentile maps" \
        jqe '.jobs[0].read | (.slat_ns.percentile["99.000000"] > 0) and (.lat_ns.percentile["99.000000"] > 0)' "$T/out"
    check_exit "the normal output of the same" 0 "$SB_BIN" io --name=t --filename="$T/g" --size=1m \
        --rw=randread --ioengine=io_uring --iodepth=4 --slat_percentiles=1 --lat_percentiles=1
    check "normal: slat line and slat, clat, lat percentiles in fio's order" \
        test "$(grep -o '^    slat (\|^    \(slat\|clat\|lat\) percentiles' "$T/out" | tr '\n' '|')" = \
        "    slat (|    slat percentiles|    clat percentiles|    lat percentiles|"
    if [ $have_fio = 1 ]; then
        fio --name=t --filename="$T/g" --size=1m --rw=randread --ioengine=io_uring --iodepth=4 \
            --slat_percentiles=1 --lat_percentiles=1 --output-format=json 2>/dev/null | sed -n '/^{/,$p' >"$T/fio.json"
        fio --name=t --filename="$T/g" --size=1m --rw=randread --ioengine=io_uring --iodepth=4 \
            --lat_percentiles=1 --output-format=json+ 2>/dev/null | sed -n '/^{/,$p' >"$T/fio+.json"
        "$SB_BIN" io --name=t --filename="$T/g" --size=1m --rw=randread --ioengine=io_uring --iodepth=4 \
            --lat_percentiles=1 --output-format=json+ >"$T/sb+.json" 2>/dev/null
        check "json+ with lat_percentiles: bins where fio has them (clat, lat)" test \
            "$(jq -c '.jobs[0].read | [.slat_ns, .clat_ns, .lat_ns] | map(has("bins"))' "$T/fio+.json")" = \
            "$(jq -c '.jobs[0].read | [.slat_ns, .clat_ns, .lat_ns] | map(has("bins"))' "$T/sb+.json" 2>/dev/null)"
        check "fio's slat_ns/clat_ns/lat_ns keys are storbench's" test \
            "$(jq -c '.jobs[0].read | [.slat_ns, .clat_ns, .lat_ns] | map(keys)' "$T/fio.json")" = \
            "$(jq -c '.jobs[0].read | [.slat_ns, .clat_ns, .lat_ns] | map(keys)' "$T/sb.json")"
    fi
else
    echo "ok # SKIP io_uring does not work here: no submission latency to see"
fi
check_exit "psync runs" 0 "$SB_BIN" io --filename="$T/g" --size=1m --rw=randread --output-format=json \
    --slat_percentiles=1
check "psync: no submission latency (slat N 0, as fio's synchronous engines), lat is clat" \
    jqe '.jobs[0].read | .slat_ns.N == 0 and .lat_ns.N == .clat_ns.N and .lat_ns.mean == .clat_ns.mean' "$T/out"
finish
