# storbench scenario: the plan of the shipped examples; refusals (bad file,
# bcache where the kernel has none, real devices not named twice, mounted or
# held open); a two-configuration scenario (btrfs single, btrfs RAID1 + LZO)
# on small loop images with the dd test, after which nothing is left mounted,
# attached or on disk; Ctrl-C and SIGKILL in the middle of a run, the second
# followed by `scenario cleanup`. The parts that build storage need root and
# loop devices and are skipped (as "ok ... # skip") without them.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

EX=$SRC/examples
. "${STORBENCH_SRC:-.}/tests/cli/scenario_lib.sh"

# ---- no root needed ----
check_exit "check seed001 example" 0 "$SB" scenario check "$EX/seed001-btrfs.ini"
if grep -q "2-Disk RAID1 + LZO + Nobarrier: btrfs data raid1, metadata raid1 over 2 devices, mount options compress=lzo,nobarrier" "$T/out" &&
   [ "$(grep -c '^  ' "$T/out")" -eq 6 ]; then ok "seed001 plan lists its 6 configurations"; else not_ok "seed001 plan ($(cat "$T/out"))"; fi
check_exit "check seed000 example" 0 "$SB" scenario check "$EX/seed000-cache.ini"
check "seed000 plan has the three cache modes" grep -q "bcache writearound with discard" "$T/out"

printf '[a]\nfilesystem = zfs\n' >"$T/bad.ini"
check_exit "bad scenario file is a usage error" 2 "$SB" scenario run "$T/bad.ini" --suite dd --result r
check_one_line "bad scenario file: one line with the line number" "bad.ini:2: filesystem 'zfs'"
check_exit "run without --suite" 2 "$SB" scenario run "$EX/seed001-btrfs.ini" --result r
check_one_line "run without --suite: one line" "--suite"
check_exit "unknown subcommand" 2 "$SB" scenario frobnicate
check_exit "--destroy-data-on without --devices" 2 "$SB" scenario run "$EX/seed001-btrfs.ini" --suite dd --result r --destroy-data-on /dev/null
check_one_line "--destroy-data-on without --devices: one line" "--devices"

if [ ! -e /sys/fs/bcache/register ]; then
    check_exit "bcache refused on a kernel without it" 1 "$SB" scenario run "$EX/seed000-cache.ini" --suite dd --result r --images "$IMG"
    check_one_line "bcache refusal says why" "no bcache"
    check "bcache refusal built nothing" test -z "$(ls -A "$IMG")"
else
    ok "bcache refusal # skip: this kernel has bcache"
fi

if [ "$(id -u)" -ne 0 ]; then
    check_exit "run refused without root" 1 "$SB" scenario run "$EX/seed001-btrfs.ini" --suite dd --result r --images "$IMG"
    check_one_line "without root: says so" "needs root"
fi

# ---- root and loop devices ----
# Can this machine (or container) attach a loop device and mount? Probe before relying on it.
can_build() {
    [ "$(id -u)" -eq 0 ] && [ -w /dev/loop-control ] || return 1
    command -v mkfs.btrfs >/dev/null && command -v mkfs.xfs >/dev/null && command -v losetup >/dev/null || return 1
    truncate -s 1M "$T/probe.img" && local l && l=$(losetup -f --show "$T/probe.img" 2>/dev/null) || return 1
    losetup -d "$l"
    rm -f "$T/probe.img"
    mkdir -p "$T/probe" && mount -t tmpfs none "$T/probe" 2>/dev/null || return 1
    umount "$T/probe" && rmdir "$T/probe"
}
if ! can_build; then
    ok "scenario run on loop devices # skip: needs root, working loop devices and mount, mkfs.btrfs, mkfs.xfs, losetup"
    finish
fi

cat >"$T/two.ini" <<'INI'
[scenario]
title = Two Btrfs Layouts
description = btrfs on one device against btrfs RAID1 with LZO over two.

[btrfs single]
filesystem = btrfs

[btrfs RAID1 + LZO]
filesystem = btrfs
devices = 2
raid = raid1
mount-options = compress=lzo,nobarrier
INI
check_exit "two configurations on 256M images" 0 "$SB" scenario run "$T/two.ini" --suite dd $DD \
    --result "$T/two.json" --images "$IMG" --image-size 256M
check "both saved" grep -q "2 of 2 configurations saved" "$T/out"
check "result file has 'btrfs single'" grep -q '"identifier": *"btrfs single"' "$T/two.json"
check "result file has 'btrfs RAID1 + LZO'" grep -q '"identifier": *"btrfs RAID1 + LZO"' "$T/two.json"
check "layout recorded: profile" grep -q '"Data Profile": *"raid1"' "$T/two.json"
check "layout recorded: compression" grep -q '"Compression": *"lzo"' "$T/two.json"
check "layout recorded: 2 loop devices" grep -q '"Disk": *"2 x 268MB Loop Image"' "$T/two.json"
if "$SB" show "$T/two.json" >"$T/page" 2>"$T/err"; then
    check "page has 'btrfs single'" grep -q "^btrfs single" "$T/page"
    check "page has 'btrfs RAID1 + LZO'" grep -q "^btrfs RAID1 + LZO" "$T/page"
    check "page shows the layout" grep -q "File-System: btrfs RAID1 (compress=lzo" "$T/page"
else
    not_ok "show the page ($(head -c 300 "$T/err"))"
fi
nothing_left "after success"

check_exit "images too small for the test are refused before building" 2 "$SB" scenario run "$T/two.ini" --suite dd \
    --result "$T/small.json" --images "$IMG" --image-size 256M
check_one_line "too small: says so" "use a larger --image-size"
check "too small: nothing built" test -z "$(ls -A "$IMG")"

check_exit "identifiers already present are refused" 1 "$SB" scenario run "$T/two.ini" --suite dd $DD \
    --result "$T/two.json" --images "$IMG" --image-size 256M
check_one_line "already present: one line" "already in"
check_exit "--only one configuration with --replace" 0 "$SB" scenario run "$T/two.ini" --suite dd $DD \
    --result "$T/two.json" --images "$IMG" --image-size 256M --only "btrfs single" --replace
check "--only built one" grep -q "1 of 1 configuration saved" "$T/out"
check "the other identifier is kept" grep -q '"identifier": *"btrfs RAID1 + LZO"' "$T/two.json"
check_exit "--only an unknown identifier" 2 "$SB" scenario run "$T/two.ini" --suite dd --result "$T/two.json" --only nope
check_one_line "--only unknown: one line" "no such configuration"

# xfs no longer takes nobarrier: recorded as not applicable, never dropped silently.
printf '[xfs]\nfilesystem = xfs\nmount-options = noatime,nobarrier\n' >"$T/xfs.ini"
check_exit "xfs with nobarrier" 0 "$SB" scenario run "$T/xfs.ini" --suite dd $DD --result "$T/xfs.json" \
    --images "$IMG" --image-size 320M
if grep -q "nobarrier" "$T/err"; then
    check "nobarrier recorded as not applicable" grep -q '"Mount Options": *"noatime; nobarrier: not applicable"' "$T/xfs.json"
else
    check "nobarrier accepted and recorded" grep -q '"Mount Options": *"noatime,nobarrier"' "$T/xfs.json"
fi
nothing_left "after xfs"

# A configuration that cannot be built fails alone: torn down, the next one still runs.
printf '[bad option]\nfilesystem = btrfs\nmount-options = noatime,bogusopt\n[good]\nfilesystem = ext4\n' >"$T/bad2.ini"
check_exit "a refused mount option fails its configuration" 1 "$SB" scenario run "$T/bad2.ini" --suite dd $DD \
    --result "$T/bad2.json" --images "$IMG" --image-size 256M
check_one_line "the error names the option" "refuses the mount option 'bogusopt'"
check "the next configuration was saved" grep -q '"identifier": *"good"' "$T/bad2.json"
check "the failed one was not" sh -c "! grep -q 'bad option' '$T/bad2.json'"
check "1 of 2 saved" grep -q "1 of 2 configurations saved" "$T/out"
nothing_left "after a failed configuration"

# ---- real devices: a loop device this test makes stands in for a disk ----
truncate -s 256M "$T/disk.img"
mkfs.ext4 -q -F "$T/disk.img"
DEV=$(losetup -f --show "$T/disk.img")
printf '[ext4 on a real device]\nfilesystem = ext4\n' >"$T/real.ini"
check_exit "real device without --destroy-data-on" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r --devices "$DEV"
check_one_line "refusal names --destroy-data-on" "--destroy-data-on"
check_exit "real device not named in --destroy-data-on" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r \
    --devices "$DEV" --destroy-data-on /dev/null
check_one_line "refusal says it is not named" "not named"
check_exit "a file is not a device" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r \
    --devices "$T/disk.img" --destroy-data-on "$T/disk.img"
check_one_line "refusal says not a block device" "not a block device"
mkdir -p "$T/m"
mount "$DEV" "$T/m"
check_exit "mounted device refused" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r \
    --devices "$DEV" --destroy-data-on "$DEV"
check_one_line "refusal says mounted" "is mounted"
check "mounted device untouched" test "$(findmnt -n -o SOURCE "$T/m")" = "$DEV"
umount "$T/m"
# btrfs shows an anonymous device number in mountinfo: the mount source must be checked too.
mkfs.btrfs -q -f "$DEV" >/dev/null 2>&1 && mount "$DEV" "$T/m"
check_exit "mounted btrfs device refused" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r \
    --devices "$DEV" --destroy-data-on "$DEV"
check_one_line "btrfs refusal says mounted" "is mounted"
umount "$T/m"
check_exit "a device listed twice" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r \
    --devices "$DEV,$DEV" --destroy-data-on "$DEV"
check_one_line "listed twice: one line" "listed twice"
sleep 60 3<"$DEV" &
HOLDER=$!
check_exit "device held open refused" 2 "$SB" scenario run "$T/real.ini" --suite dd --result r \
    --devices "$DEV" --destroy-data-on "$DEV"
check_one_line "refusal says held open" "held open by process $HOLDER"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
check_exit "named free device is used" 0 "$SB" scenario run "$T/real.ini" --suite dd $DD --result "$T/real.json" \
    --devices "$DEV" --destroy-data-on "$DEV" --images "$IMG"
check "it warned about the old filesystem" grep -q "carries btrfs" "$T/err"
check "the device is not left mounted" test -z "$(findmnt -rn -S "$DEV")"
check "the device is still attached (not ours to detach)" sh -c "losetup \"$DEV\" >/dev/null"
losetup -d "$DEV"
rm -f "$T/disk.img"
nothing_left "after real device"

# ---- interrupted runs ----
cat >"$T/long.ini" <<'INI'
[long]
filesystem = btrfs
INI
wait_mounted() {
    for _ in $(seq 1 200); do
        findmnt -rn -o TARGET | grep -q "^$IMG/storbench-mnt-" && return 0
        sleep 0.1
    done
    return 1
}
LONG="-o count=64 -o bs=1M -n 50 --exact-runs --no-drop-caches"

"$SB" scenario run "$T/long.ini" --suite dd $LONG --result "$T/int.json" --images "$IMG" --image-size 256M \
    >"$T/int.out" 2>"$T/int.err" &
P=$!
if wait_mounted; then
    sleep 0.3
    kill -INT "$P"
    wait "$P"; rc=$?
    check "Ctrl-C exits 130" test "$rc" -eq 130
    check "Ctrl-C says it tore down" grep -q "torn down" "$T/int.err"
    check "Ctrl-C saved nothing" test ! -e "$T/int.json"
    nothing_left "after Ctrl-C"
else
    kill -9 "$P" 2>/dev/null
    not_ok "Ctrl-C: the run never mounted ($(cat "$T/int.err"))"
fi

"$SB" scenario run "$T/long.ini" --suite dd $LONG --result "$T/kill.json" --images "$IMG" --image-size 256M \
    >"$T/kill.out" 2>"$T/kill.err" &
P=$!
if wait_mounted; then
    sleep 0.3
    kill -KILL "$P"
    wait "$P" 2>/dev/null
    check "SIGKILL leaves a mount behind" sh -c "findmnt -rn -o TARGET | grep -q '^$IMG/'"
    check "SIGKILL leaves a journal behind" test -n "$(ls -A "$STORBENCH_STATE_DIR")"
    check_exit "cleanup after SIGKILL" 0 "$SB" scenario cleanup --images "$IMG"
    check "cleanup reports the run" grep -q "1 interrupted run cleaned up" "$T/out"
    nothing_left "after SIGKILL + cleanup"
    check_exit "a second cleanup finds nothing" 0 "$SB" scenario cleanup --images "$IMG"
    check "nothing to clean" grep -q "0 interrupted runs cleaned up, 0 stray files" "$T/out"
else
    kill -9 "$P" 2>/dev/null
    not_ok "SIGKILL: the run never mounted ($(cat "$T/kill.err"))"
fi
finish
