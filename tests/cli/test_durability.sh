#!/bin/bash
# CLI tests of `storbench run durability` (docs/workloads.md, durability): on a
# target whose filesystem cannot be rebuilt (tmpfs) it is skipped with one line
# and nothing is saved; its option errors; and, where this machine can record
# writes (root, loop devices, FUSE), a quick run on ext4 records 0 % and a
# nobarrier run a loss, both in the result file (the unit test test_durability
# checks the figures in detail, ext4 and btrfs).
. "$(dirname "$0")/lib.sh"

check_exit "bad writes" 2 "$SB" run durability:writes=0 --target "$T"
check_one_line "bad writes: one line" "writes"
check_exit "bad mount options" 2 "$SB" run "durability:mount-options=a b" --target "$T"
check_one_line "bad mount options: one line" "mount-options"
check_exit "unknown filesystem" 2 "$SB" run durability:fs=ntfs --target "$T"

if R=$(mktemp -d /dev/shm/sbdur.XXXXXX 2>/dev/null); then
    check_exit "tmpfs target: skipped, nothing saved" 1 "$SB" run durability --quick --target "$R" --result d0
    check "tmpfs target: the skip says why" grep -q "skipped: the target's filesystem is not ext4" "$T/err"
    check "tmpfs target: no result file" test ! -e "$XDG_DATA_HOME/storbench/results/d0.json"
    rm -rf "$R"
fi

if [ "$(id -u)" = 0 ] && [ -w /dev/loop-control ] && [ -w /dev/fuse ] && command -v mkfs.ext4 >/dev/null; then
    mkdir -p "$T/target"
    check_exit "ext4 defaults" 0 "$SB" run durability:fs=ext4,writes=20,cuts=4 --quick --target "$T/target" \
        --result d1 --identifier safe
    check_exit "ext4 nobarrier" 0 "$SB" run durability:fs=ext4,mount-options=nobarrier,writes=20,cuts=4 \
        --quick --target "$T/target" --result d1 --identifier unsafe
    J="$XDG_DATA_HOME/storbench/results/d1.json"
    check "both recorded" test -s "$J"
    "$SB" show d1 --format csv >"$T/d1.csv" 2>&1
    check "defaults: no cut point lost data" grep -q ',safe,result,%,lower,0,' "$T/d1.csv"
    check "nobarrier: every cut point lost data" grep -q ',unsafe,result,%,lower,100,' "$T/d1.csv"
    check "nobarrier: acknowledged writes lost, counted" grep -Eq ',unsafe,acked_lost,writes,,[1-9]' "$T/d1.csv"
    check "target left empty" test -z "$(ls -A "$T/target")"
    check "nothing left mounted" bash -c "! grep -q '$T' /proc/self/mountinfo"
else
    echo "ok durability runs skipped: needs root, loop devices and FUSE here # SKIP"
fi
finish
