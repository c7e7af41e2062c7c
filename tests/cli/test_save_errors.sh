#!/bin/bash
# Saving a result file on a full file system (ENOSPC) or one that went read-only under a
# run (EROFS), and `show -o` onto a full one: the old file stays intact, no
# temporary file remains, and the failure is one line naming the error. Needs root (a
# small tmpfs); skipped otherwise.
. "$(dirname "$0")/lib.sh"
S0=$SEEDS/000_a97674fdc4297efd.txt
S1=$SEEDS/001_5b3cf86a040befc6.txt
if [ "$(id -u)" != 0 ] || ! mkdir -p "$T/mnt" || ! mount -t tmpfs -o size=256k tmpfs "$T/mnt" 2>/dev/null; then
    ok "save errors (skipped: needs root to mount a tmpfs) # SKIP"
    finish
fi
trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
R=$T/mnt/results
check_exit "import onto the small tmpfs" 0 "$SB" import "$S1" --result r --results-dir "$R"
sum=$(md5sum <"$R/r.json")
# Fill what is left.
dd if=/dev/zero of="$T/mnt/fill" bs=4k 2>/dev/null
check_exit "import into a result on a full file system" 1 "$SB" import "$S0" --result r --results-dir "$R"
check_one_line "full file system: one line" "No space left on device"
check "full file system: the old file is intact" test "$(md5sum <"$R/r.json")" = "$sum"
check "full file system: no temporary file left" test "$(ls -A "$R")" = r.json
check_exit "show -o onto a full file system" 1 "$SB" show r --format html -o "$T/mnt/page.html" --results-dir "$R"
check_one_line "show -o full: one line" "No space left on device"
check "show -o full: nothing left" test ! -e "$T/mnt/page.html"
rm -f "$T/mnt/fill"

# Read-only under a run: it reads the file (allowed), measures, then cannot save. The
# file system goes read-only before the run starts: a quick run can be over in 70 ms, so
# a remount "in the middle" would race with it; the save path is the same.
mount -o remount,ro "$T/mnt" || not_ok "remount read-only"
"$SB" run dd --quick --runs 1 -o count=8 -t "$T" --result r -i "Late" --results-dir "$R" >/dev/null 2>"$T/err"
rc=$?
mount -o remount,rw "$T/mnt"
if [ "$rc" -eq 1 ]; then ok "run whose results directory went read-only: exit 1"; else not_ok "run whose results directory went read-only: exit $rc ($(head -c 200 "$T/err"))"; fi
check_one_line "read-only: one line naming it" "Read-only file system"
check "read-only: the old file is intact" test "$(md5sum <"$R/r.json")" = "$sum"
check "read-only: no temporary file left" test "$(ls -A "$R")" = r.json
finish
