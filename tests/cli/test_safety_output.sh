#!/bin/bash
# Output errors do not lose work (issue 24, item 8): `run` whose standard output is a
# closed pipe or /dev/full keeps measuring, saves, and at the end says on stderr that the
# output failed, naming the real error (Broken pipe, No space left on device, not EIO),
# and that the result was saved; exit 1, never death by SIGPIPE (141). `compare` and
# `list` on a full or closed output name the error too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/safety_lib.sh"
command -v jq >/dev/null || { ok "output errors (skipped: needs jq) # SKIP"; finish; }
D=$T/results
mkdir -p "$D"
RUN=("$SB" run dd --quick --runs 1 -o count=8 -t "$SAFETY_TARGET" --result "$D/r.json")

# A pipe whose reader is gone before the first write (deterministic, unlike `| head`):
# open the FIFO both ways, open a writer, then close the reading end.
mkfifo "$T/fifo"
exec 3<>"$T/fifo" 4>"$T/fifo" 3<&-
"${RUN[@]}" -i closed >&4 2>"$T/err"; rc=$?
check "run into a closed pipe: exit 1, not killed by SIGPIPE" test "$rc" -eq 1
check_one_line "run into a closed pipe: one line naming it" \
    "cannot write to standard output: Broken pipe (the result was saved in $D/r.json)"
check "run into a closed pipe: the figures were saved" sh -c "jq -r '.systems[].identifier' '$D/r.json' | grep -qx closed"
"$SB" list >&4 2>"$T/err"; rc=$?
exec 4>&-
check "list into a closed pipe: exit 1" test "$rc" -eq 1
check_one_line "list into a closed pipe: Broken pipe" "Broken pipe"

# The way people do it: whatever head's timing, the run is saved and never dies of SIGPIPE.
"${RUN[@]}" -i head 2>"$T/err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
check "run | head -1: exit 0 or 1, not 141 ($rc)" test "$rc" -le 1
check "run | head -1: the figures were saved" sh -c "jq -r '.systems[].identifier' '$D/r.json' | grep -qx head"

if [ -w /dev/full ]; then
    "${RUN[@]}" -i full >/dev/full 2>"$T/err"; rc=$?
    check "run > /dev/full: exit 1" test "$rc" -eq 1
    check_one_line "run > /dev/full: one line, ENOSPC and saved" \
        "cannot write to standard output: No space left on device (the result was saved in"
    check "run > /dev/full: the figures were saved" sh -c "jq -r '.systems[].identifier' '$D/r.json' | grep -qx full"
    "$SB" compare "$D/r.json" >/dev/full 2>"$T/err"; rc=$?
    check "compare > /dev/full: exit 1" test "$rc" -eq 1
    check_one_line "compare > /dev/full: No space left on device" "No space left on device"
else
    ok "/dev/full (skipped: not writable here) # SKIP"
fi
finish
