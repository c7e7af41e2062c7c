#!/bin/bash
# CLI tests of the device-safety rules (core/devguard.c, io/guard.c; docs/safety.md,
# "Block devices"), on loop devices this script makes and removes on every path: a
# device that is mounted (directly, through a second loop device over the same image,
# or by a partition), used as swap, held by dm, or claimed exclusively is refused, exit
# 2, one line naming what holds it; a device carrying a signature is written only when
# named with --destroy-data-on; --readonly, allow_mounted_write, allow_file_create; a
# trim of an existing file needs the same consent. After every refusal the mounted
# filesystem's file keeps its checksum and e2fsck -fn finds it clean.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null ||
    ! losetup -f >/dev/null 2>&1; then
    echo "ok # SKIP needs root, losetup, mkfs.ext4 and a free loop device"
    finish
fi

LOOPS="" MOUNTS="" SWAPS="" PIDS="" DMS=""
cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    for d in $DMS; do dmsetup remove "$d" 2>/dev/null; done
    for s in $SWAPS; do swapoff "$s" 2>/dev/null; done
    for m in $MOUNTS; do umount "$m" 2>/dev/null; done
    for l in $LOOPS; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# attach [-P] IMAGE: a loop device over IMAGE in $DEV, remembered for the clean-up
attach() { DEV=$(losetup -f --show "$@") && LOOPS="$LOOPS $DEV"; }
io() { "$SB_BIN" io --quiet --output-format=terse "$@"; }

# ---- a mounted ext4 with a 4 MiB file of known content ----
truncate -s 256M "$T/img"
attach "$T/img"; L=$DEV
mkfs.ext4 -q "$L"
mkdir -p "$T/m"
mount "$L" "$T/m" && MOUNTS="$T/m"
head -c 4M /dev/urandom >"$T/m/known"
sync
SUM=$(md5sum <"$T/m/known")
intact() { check "$1: the file keeps its checksum" test "$(md5sum <"$T/m/known")" = "$SUM"; }

check_exit "io --rw=write on a mounted device: refused, exit 2" 2 \
    io --name=w --rw=write --bs=1M --size=64m --filename="$L"
check_one_line "... one line naming the mount point" "is mounted on $T/m"
intact "mounted, flags"
cat >"$T/job.fio" <<EOF
[w]
filename=$L
rw=randwrite
bs=4k
size=16m
EOF
check_exit "a job file writing a mounted device: refused, exit 2" 2 io "$T/job.fio"
check_one_line "... naming the mount" "is mounted"
check_exit "rw=trim of a mounted device: refused" 2 io --rw=trim --bs=1M --size=16m --filename="$L"
check_exit "allow_mounted_write=0 is fio's default: refused" 2 \
    io --rw=write --size=16m --filename="$L" --allow_mounted_write=0
check_one_line "... naming the mount" "is mounted"
check_exit "allow_mounted_write=1 lifts only the mounted rule: the signature still refuses" 2 \
    io --rw=write --size=16m --filename="$L" --allow_mounted_write=1
check_one_line "... naming ext4 and the consent flag" "carries ext4.*--destroy-data-on $L"
check_exit "reading a mounted device is allowed" 0 io --rw=read --bs=1M --size=16m --filename="$L"
check_exit "--readonly refuses a writing job before anything runs" 2 \
    io --readonly --rw=randwrite --size=16m --filename="$L"
check_one_line "... naming --readonly" "readonly forbids writes"
check_exit "--readonly refuses a trimming job" 2 io --readonly --rw=trim --size=16m --filename="$L"
check_exit "--readonly lets a read run" 0 io --readonly --rw=read --size=16m --filename="$L"
check_exit "--readonly creates no file" 1 io --readonly --rw=read --size=1m --filename="$T/absent"
check "... and none was made" test ! -e "$T/absent"
intact "mounted, job file and options"

# ---- a second loop device over the same image as the mounted one ----
attach "$T/img"; L2=$DEV
check_exit "io on a twin loop device of a mounted one: refused" 2 io --rw=write --size=16m \
    --filename="$L2" --destroy-data-on "$L2"
check_one_line "... naming the twin and its mount" "shares its backing file.*$L.*mounted"
printf '[ext4 on a real device]\nfilesystem = ext4\n' >"$T/real.ini"
check_exit "scenario run on the twin, even named in --destroy-data-on: refused" 2 \
    "$SB" scenario run "$T/real.ini" --suite dd --result "$T/r.json" --devices "$L2" --destroy-data-on "$L2"
check_one_line "... naming the twin" "shares its backing file"
check "... and no result was saved" test ! -e "$T/r.json"
intact "twin loop"

# ---- a device claimed exclusively by a process ----
truncate -s 64M "$T/blank"
attach "$T/blank"; B=$DEV
python3 -c 'import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); print("held", flush=True); time.sleep(60)' \
    "$B" >"$T/held" &
HOLDER=$!
PIDS="$HOLDER"
for _ in $(seq 50); do grep -q held "$T/held" && break; sleep 0.1; done
check_exit "a device opened O_EXCL by another process: refused" 2 io --rw=write --size=16m --filename="$B"
check_one_line "... naming the exclusive claim" "claimed exclusively"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null; PIDS=""
check_exit "a blank device needs no consent" 0 io --rw=write --bs=1M --size=16m --filename="$B"

# ---- swap ----
if mkswap -q "$B" >/dev/null 2>&1 && swapon "$B" 2>/dev/null; then
    SWAPS="$B"
    check_exit "a device in use as swap: refused" 2 io --rw=write --size=16m --filename="$B" --destroy-data-on "$B"
    check_one_line "... naming swap" "in use as swap"
    swapoff "$B"; SWAPS=""
    check_exit "a swap signature without consent: refused" 2 io --rw=write --size=16m --filename="$B"
    check_one_line "... naming swap" "carries swap"
else
    echo "ok # SKIP swapon on a loop device failed here: no swap to refuse"
fi

# ---- held by dm ----
if command -v dmsetup >/dev/null && [ -e /dev/mapper/control ] &&
    echo "0 $((64 * 2048)) linear $B 0" | dmsetup create "sbguard$$" 2>/dev/null; then
    DMS="sbguard$$"
    check_exit "a device held by dm: refused" 2 io --rw=write --size=16m --filename="$B" --destroy-data-on "$B"
    check_one_line "... naming the holder" "is held by dm-"
    dmsetup remove "sbguard$$"; DMS=""
else
    echo "ok # SKIP no device mapper here (/dev/mapper/control): the holders rule is not tried on dm"
fi

# ---- a device whose partition is mounted ----
if command -v sfdisk >/dev/null; then
    truncate -s 64M "$T/parted"
    echo ',,L' | sfdisk -q "$T/parted" >/dev/null 2>&1
    attach -P "$T/parted"; P=$DEV
    # a kernel that does not scan loop devices' tables is told the partition by partx
    [ -b "${P}p1" ] || partx -a "$P" 2>/dev/null
    for _ in $(seq 50); do [ -b "${P}p1" ] && break; sleep 0.1; done
    if [ -b "${P}p1" ] && mkfs.ext4 -q "${P}p1" && mkdir -p "$T/pm" && mount "${P}p1" "$T/pm"; then
        MOUNTS="$T/pm $MOUNTS"
        check_exit "a device with a mounted partition: refused" 2 io --rw=write --size=16m --filename="$P" \
            --destroy-data-on "$P"
        check_one_line "... naming the partition" "has a partition, ${P}p1, mounted"
        umount "$T/pm"; MOUNTS="$T/m"
        check_exit "a partition table without consent: refused" 2 io --rw=write --size=16m --filename="$P"
        check_one_line "... naming the table" "carries a dos partition table"
    else
        echo "ok # SKIP no partition device appeared for a partitioned loop device"
    fi
else
    echo "ok # SKIP no sfdisk: the partition rule is not tried"
fi

# ---- the unmounted filesystem: its signature ----
umount "$T/m"; MOUNTS=""
check_exit "an unmounted ext4: refused without consent" 2 io --rw=write --bs=1M --size=64m --filename="$L"
check_one_line "... naming ext4 and --destroy-data-on" "carries ext4 (filesystem).*--destroy-data-on $L"
check_exit "rw=trim of it: refused" 2 io --rw=trim --bs=1M --size=64m --filename="$L"
check_exit "a job file writing it: refused" 2 io "$T/job.fio"
check_exit "consent for another device does not count" 2 io --rw=write --size=16m --filename="$L" \
    --destroy-data-on "$B"
check "after every refusal, e2fsck -fn finds it clean" sh -c "e2fsck -fn '$L' >/dev/null 2>&1"
mount "$L" "$T/m" && MOUNTS="$T/m"
intact "every refusal"
umount "$T/m"; MOUNTS=""
check_exit "named with --destroy-data-on (by another path to it): written" 0 \
    io --rw=write --bs=1M --size=16m --filename="$L" --destroy-data-on "$(readlink -f "$L")"
check "... and its filesystem is gone" sh -c "! e2fsck -fn '$L' >/dev/null 2>&1"
check_exit "--destroy-data-on a missing path: exit 2" 2 io --rw=write --size=16m --filename="$L" \
    --destroy-data-on "$T/nothing"

# ---- files: trims of an existing file, allow_file_create ----
head -c 1M /dev/urandom >"$T/f"
FSUM=$(md5sum <"$T/f")
check_exit "rw=trim of an existing file: refused" 2 io --rw=trim --bs=64k --size=1m --filename="$T/f"
check_one_line "... naming the consent" "punch holes.*--destroy-data-on"
check "... the file unchanged" test "$(md5sum <"$T/f")" = "$FSUM"
check_exit "with --destroy-data-on FILE: trimmed" 0 io --rw=trim --bs=64k --size=1m --filename="$T/f" \
    --destroy-data-on "$T/f"
check_exit "a trim of a file the job creates needs no consent" 0 io --rw=trimwrite --bs=64k --size=1m \
    --filename="$T/new"
check_exit "allow_file_create=0 with a missing file: no run" 1 io --rw=write --size=1m \
    --filename="$T/missing" --allow_file_create=0
check_one_line "... naming allow_file_create" "allow_file_create=0"
check "... and nothing made" test ! -e "$T/missing"
check_exit "allow_file_create=0 with an existing file: runs" 0 io --rw=write --size=1m --filename="$T/f" \
    --allow_file_create=0
check_exit "run with a device as its target: refused" 2 "$SB" run dd --target "$L" --no-save
finish
