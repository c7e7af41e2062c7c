#!/bin/bash
# lab-stamp — where a device-lab run's host time goes (docs/scenarios.md, "Where a
# configuration's host time goes"). Runs COMMAND (bench/seed-shape.sh, or `storbench scenario
# run ... --vm`) in a session of its own and prefixes each line of its output with the UTC
# time, the seconds since the start and the host CPU seconds the running guest's QEMU has used
# so far ('-' between guests), so that each test's host time, and how much of it the host's
# CPU spent emulating the guest, can be read off the log (a test's line is printed when it
# ends: the difference to the line before is its time). Under virtual time a guest's vCPU
# costs the host only while it is busy (each virtual second of it 10^9 emulated instructions);
# its idle time is skipped. The last line gives COMMAND's exit status and the load average.
#
#   SEED001=0 bench/lab-stamp.sh nice -n 19 bench/seed-shape.sh --vm-accel tcg > LOG
#
# Exit: COMMAND's status (2 when no COMMAND is given).
set -u
[ $# -gt 0 ] || { echo "usage: bench/lab-stamp.sh COMMAND [ARG...]" >&2; exit 2; }
D=$(mktemp -d /tmp/lab-stamp.XXXXXX) || exit 1
trap 'rm -rf "$D"' EXIT
mkfifo -m 600 "$D/out" || exit 1
# setsid execs COMMAND in place (a background job of a script is no group leader): $! is the
# session's id, which every process COMMAND starts (the guests' QEMU too) keeps.
setsid "$@" >"$D/out" 2>&1 &
SID=$!
start=$(date +%s)
while IFS= read -r l; do
    cpu=$(ps -s "$SID" -o times=,comm= 2>/dev/null | awk '$2 ~ /^qemu-system/ { s += $1; n++ } END { print n ? s : "-" }')
    printf '%(%H:%M:%S)T %5d %5s %s\n' -1 $(($(date +%s) - start)) "$cpu" "$l"
done <"$D/out"
wait "$SID"
rc=$?
printf '%(%H:%M:%S)T %5d     - exit %d, load average %s\n' -1 $(($(date +%s) - start)) "$rc" "$(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
