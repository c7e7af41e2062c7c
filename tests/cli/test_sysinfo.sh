# storbench sysinfo: the seed-style description lines, checked against what
# the system's own tools (findmnt, stat, uname, /proc, /sys) say; json output;
# usage errors.
. "$(dirname "$0")/lib.sh"

# value KEY FILE: the value of "KEY: value" in the comma-separated lines of FILE
value() { sed 's/, /\n/g' "$2" | sed -n "s/^$1: //p" | head -n 1; }

TGT=/var/tmp
check_exit "sysinfo --target exits 0" 0 "$SB" sysinfo --target "$TGT"
cp "$T/out" "$T/text"
check "three lines" test "$(wc -l <"$T/text")" -eq 3
check "hardware line in seed order" grep -q '^Processor: .*, Motherboard: .*, Chipset: .*, Memory: .*, Disk: ' "$T/text"
check "software line in seed order" grep -q '^OS: .*, Kernel: .*, Compiler: .*, File-System: ' "$T/text"
check "storage line" grep -q '^Target: .*, Block Device: .*, Device Model: .*, Scheduler: .*, Rotational: .*, Mount Point: .*, Mount Source: .*, Mount Options: .*, CPU Governor: ' "$T/text"
check "no empty values" test -z "$(sed 's/, /\n/g' "$T/text" | grep -E '^[A-Za-z -]+: *$')"

ncpu=$(grep -c '^processor' /proc/cpuinfo)
check "processor names the logical CPU count" grep -q "^Processor: .* ($ncpu Cores*)," "$T/text"

if [ -r /sys/class/dmi/id/board_name ]; then
    check "motherboard from DMI" grep -qF "$(cat /sys/class/dmi/id/board_name)" "$T/text"
else
    check "motherboard Unknown without DMI" test "$(value Motherboard "$T/text")" = Unknown
fi
if [ -r /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor ]; then
    check "governor" test "$(value 'CPU Governor' "$T/text")" = "$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)"
else
    check "governor Unknown without cpufreq" test "$(value 'CPU Governor' "$T/text")" = Unknown
fi

if [ -r /sys/devices/system/memory/block_size_bytes ]; then
    bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
    blocks=$(cat /sys/devices/system/memory/memory*/online | grep -c '^1')
    mem="$((bs * blocks / 1048576))MB"
    check "memory from the online memory blocks" test "$(value Memory "$T/text")" = "$mem"
else
    mem=$(awk '/^MemTotal:/ {print int($2 / 1024) "MB"}' /proc/meminfo)
    check "memory from meminfo" test "$(value Memory "$T/text")" = "$mem"
fi
check "kernel is uname release (machine)" test "$(value Kernel "$T/text")" = "$(uname -r) ($(uname -m))"
pretty=$(. /etc/os-release && echo "$PRETTY_NAME")
check "OS is PRETTY_NAME" test "$(value OS "$T/text")" = "$pretty"
check "compiler named" grep -qE 'Compiler: (GCC|Clang) [0-9]' "$T/text"
check "target is the resolved path" test "$(value Target "$T/text")" = "$(realpath "$TGT")"

# The filesystem, mount point and options agree with findmnt (which lists every mount stacked
# on a point; the last is on top), the type also with stat -f (which cannot tell ext4 from
# ext2/3: they share one magic number).
fs_matches() {
    local dir=$1 file=$2 ours st
    ours=$(value File-System "$file")
    [ "$ours" = "$(findmnt -n -o FSTYPE -T "$dir" | tail -n 1)" ] || return 1
    st=$(stat -f -c %T "$dir")
    case "$st" in
        ext2/ext3) case "$ours" in ext2|ext3|ext4) return 0 ;; esac; return 1 ;;
        overlayfs) [ "$ours" = overlay ] ;;
        *) [ "$ours" = "$st" ] ;;
    esac
}
check "file-system matches findmnt and stat -f ($TGT)" fs_matches "$TGT" "$T/text"
check "mount point matches findmnt" test "$(value 'Mount Point' "$T/text")" = "$(findmnt -n -o TARGET -T "$TGT" | tail -n 1)"
opts_cover() {
    local ours=",$(value 'Mount Options' "$T/text")," o
    for o in $(findmnt -n -o OPTIONS -T "$TGT" | tail -n 1 | tr ',' ' '); do
        case "$ours" in *",$o,"*) ;; *) echo "missing option $o" >&2; return 1 ;; esac
    done
}
check "mount options include every option findmnt shows" opts_cover

# The scheduler is the bracketed one of the device the mount sits on (when it is a plain disk).
dev=$(value 'Block Device' "$T/text")
disk=${dev##* on }
if [ -r "/sys/block/$disk/queue/scheduler" ]; then
    want=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$disk/queue/scheduler")
    [ -n "$want" ] || want=$(cat "/sys/block/$disk/queue/scheduler")
    check "scheduler of $disk" test "$(value Scheduler "$T/text")" = "$want"
    rot=$(cat "/sys/block/$disk/queue/rotational")
    [ "$rot" = 1 ] && rot=Yes || rot=No
    check "rotational of $disk" test "$(value Rotational "$T/text")" = "$rot"
else
    ok "scheduler (skipped: the target's device $dev has no queue in sysfs)"
fi

# Every kind of mount this machine has (the root mount may be listed after its children).
for d in / /proc /sys /dev /dev/shm /dev/pts $(findmnt -n -l -o TARGET | grep -v ' ' | head -n 12); do
    [ -d "$d" ] || continue
    "$SB" sysinfo --target "$d" >"$T/m" 2>&1 || { not_ok "sysinfo --target $d"; continue; }
    [ "$(value 'Mount Point' "$T/m")" = "$(findmnt -n -o TARGET -T "$d" | tail -n 1)" ] &&
        [ "$(value File-System "$T/m")" = "$(findmnt -n -o FSTYPE -T "$d" | tail -n 1)" ] ||
        not_ok "mount of $d: ours $(value 'Mount Point' "$T/m") $(value File-System "$T/m"), findmnt $(findmnt -n -o TARGET,FSTYPE -T "$d" | tail -n 1)"
done
ok "mount point and type of every mount agree with findmnt"

# RAM-backed target: tmpfs, no block device.
if [ -d /dev/shm ]; then
    "$SB" sysinfo --target /dev/shm >"$T/shm" 2>&1
    check "tmpfs target" fs_matches /dev/shm "$T/shm"
    check "tmpfs has no block device" test "$(value 'Block Device' "$T/shm")" = None
fi

# A two-device btrfs on loop devices (root only; skipped where loop devices or mounting are
# not available, or with STORBENCH_TESTS_NO_MOUNT=1): the anonymous 0:N device number of a
# btrfs mount is resolved through its source, and both members are named.
btrfs_check() {
    local a b
    truncate -s 128M "$T/a.img" "$T/b.img" || return 2
    a=$(losetup -f --show "$T/a.img" 2>/dev/null) || return 2
    b=$(losetup -f --show "$T/b.img" 2>/dev/null) || { losetup -d "$a"; return 2; }
    mkdir -p "$T/mnt"
    if mkfs.btrfs -q -f -d raid1 -m raid1 "$a" "$b" >/dev/null 2>&1 &&
       mount -o compress=lzo "$a" "$T/mnt" 2>/dev/null; then
        "$SB" sysinfo --target "$T/mnt" >"$T/btrfs" 2>&1
        umount "$T/mnt"
        losetup -d "$a" "$b"
        return 0
    fi
    losetup -d "$a" "$b"
    return 2
}
if [ "$(id -u)" = 0 ] && [ -z "${STORBENCH_TESTS_NO_MOUNT:-}" ] && command -v mkfs.btrfs >/dev/null &&
   btrfs_check; then
    check "btrfs: file-system" test "$(value File-System "$T/btrfs")" = btrfs
    check "btrfs: both members" grep -qE 'Block Device: loop[0-9]+ \+ loop[0-9]+,' "$T/btrfs"
    check "btrfs: loop backing file" grep -qF "Device Model: Loop device ($T/" "$T/btrfs"
    check "btrfs: mount options" grep -q 'Mount Options: [^ ]*compress=lzo' "$T/btrfs"
else
    ok "btrfs on loop devices (skipped: needs root, loop devices and mkfs.btrfs)"
fi

# Without --target: two lines, File-System of /.
check_exit "sysinfo without target" 0 "$SB" sysinfo
check "two lines without target" test "$(wc -l <"$T/out")" -eq 2
check "no storage line without target" test -z "$(grep '^Target:' "$T/out")"
check "file-system of / without target" fs_matches / "$T/out"
check "hardware line identical with and without target" test "$(head -n 1 "$T/out")" = "$(head -n 1 "$T/text")"

# json: the same values, grouped.
check_exit "json exits 0" 0 "$SB" sysinfo --target "$TGT" --format json
jget() { sqlite3 :memory: "select json_extract(readfile('$T/out'), '\$.$1')"; }
check "json is valid" test "$(sqlite3 :memory: "select json_valid(readfile('$T/out'))")" = 1
check "json hardware.Memory" test "$(jget hardware.Memory)" = "$mem"
check "json software.File-System" test "$(jget 'software."File-System"')" = "$(value File-System "$T/text")"
check "json storage.Target" test "$(jget storage.Target)" = "$(realpath "$TGT")"
json_as_text() {
    local g
    for g in hardware software storage; do
        sqlite3 :memory: "select group_concat(key || ': ' || value, ', ') from json_each(readfile('$T/out'), '\$.$g')"
    done
}
check "json holds the same pairs as the text" test "$(json_as_text)" = "$(cat "$T/text")"
check "json key order" test "$(grep -o '"[A-Za-z -]*":' "$T/out" | head -n 6 | tr -d '\n')" = '"hardware":"Processor":"Motherboard":"Chipset":"Memory":"Disk":'

# Usage.
check_exit "--help exits 0" 0 "$SB" sysinfo --help
check "--help prints usage" grep -q '^usage: storbench sysinfo' "$T/out"
check_exit "missing target is a usage error" 2 "$SB" sysinfo --target "$T/nope"
check_one_line "missing target: one line naming it" "nope"
check "missing target: nothing on stdout" test ! -s "$T/out"
: >"$T/file"
check_exit "target that is a file" 2 "$SB" sysinfo --target "$T/file"
check_one_line "target that is a file: one line" "not a directory"
check_exit "unknown format" 2 "$SB" sysinfo --format xml
check_one_line "unknown format: one line" "xml"
check_exit "unknown option" 2 "$SB" sysinfo --bogus
check_one_line "unknown option: one line" "bogus"
check_exit "--target without a value" 2 "$SB" sysinfo --target
check_one_line "--target without a value: one line" "target"
check_exit "stray argument" 2 "$SB" sysinfo extra
check_one_line "stray argument: one line" "extra"
finish
