# Shared by the CLI tests that build storage on loop images (test_scenario.sh,
# test_devices_model.sh): sourced after lib.sh. Sets the private journal
# directory and image directory under $T, the small dd options those runs use,
# an EXIT trap that never leaves our mounts or loop devices behind whatever a
# failing check left, and nothing_left, the check that a run left nothing of
# ours mounted, attached, journaled, on disk or served by a device guardian.
export STORBENCH_STATE_DIR="$T/state"
IMG="$T/img"
mkdir -p "$IMG"
DD="-o count=4 -o bs=1M -n 1 --exact-runs --no-drop-caches"

# Replaces lib.sh's EXIT trap (which only removes $T): unmount and detach first.
storage_safety() {
    for m in $(findmnt -rn -o TARGET 2>/dev/null | grep "^$T/" | sort -r); do umount -l "$m" 2>/dev/null; done
    for l in $(losetup -n -O NAME,BACK-FILE 2>/dev/null | awk -v t="$T/" 'index($2, t) == 1 {print $1}'); do
        losetup -d "$l" 2>/dev/null
    done
    rm -rf "$T"
}
trap storage_safety EXIT

# nothing_left WHAT: nothing of ours mounted, attached, journaled or on disk,
# and no device-model guardian holding our images open (other guardians may
# run beside us: only one with a file under $T open is ours).
nothing_left() {
    local what=$1 g mine=""
    if findmnt -rn -o TARGET | grep -q "^$T/"; then not_ok "$what: nothing mounted ($(findmnt -rn -o TARGET | grep "^$T/"))"; else ok "$what: nothing mounted"; fi
    if losetup -n -O BACK-FILE | grep -q "^$T/"; then not_ok "$what: no loop device attached ($(losetup -a))"; else ok "$what: no loop device attached"; fi
    if [ -z "$(ls -A "$IMG")" ]; then ok "$what: images dir empty"; else not_ok "$what: images dir empty ($(ls -A "$IMG"))"; fi
    if [ -z "$(ls -A "$STORBENCH_STATE_DIR" 2>/dev/null)" ]; then ok "$what: no journal left"; else not_ok "$what: no journal left ($(ls -A "$STORBENCH_STATE_DIR"))"; fi
    for g in $(pgrep -x storbench-model); do
        ls -l "/proc/$g/fd" 2>/dev/null | grep -q "$T/" && mine="$mine $g"
    done
    if [ -n "$mine" ]; then not_ok "$what: no guardian left ($mine)"; else ok "$what: no guardian left"; fi
}
