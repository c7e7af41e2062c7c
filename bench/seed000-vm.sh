#!/bin/bash
# seed000-vm — the whole of examples/seed000-cache.ini under `scenario run
# --vm` (issue 13's "done when"): every seed-000 configuration (HDD, SSD,
# bcache writethrough / writeback / writearound, each with and without
# discard; ext4 on top) built in its own throwaway QEMU guest on an emulated
# SSD and HDD, the dd suite on each. Then checks that the page has every
# configuration, that each bcache identifier's mode read back from sysfs
# matches its section, and that no guest, mount or image is left. About 1-3
# minutes per configuration under TCG, so 10-25 minutes in all.
#
#   bench/seed000-vm.sh [EXTRA SCENARIO OPTIONS]      e.g. --vm-accel tcg -o count=16
#
# Environment: IMAGES=/var/tmp (where the private image directory goes),
# IMAGE_SIZE=2G (the dd suite writes 1 GiB), RESULT=<scratch>/seed000-vm.json (kept when RESULT is set).
# Exit: 0 when every check passed, 1 otherwise, 130 interrupted.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$ROOT/storbench}
W=$(mktemp -d "${IMAGES:-/var/tmp}/seed000-vm.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP
R=${RESULT:-$W/seed000-vm.json}
mkdir -p "$W/img"
fail=0
start=$(date +%s)
nice -n 19 "$SB" scenario run "$ROOT/examples/seed000-cache.ini" --vm --suite dd --result "$R" --replace \
    --images "$W/img" --image-size "${IMAGE_SIZE:-2G}" "$@"
rc=$?
echo "seed000-vm: scenario run exited $rc after $(( $(date +%s) - start )) s"
[ "$rc" -eq 0 ] || fail=1
json=$("$SB" show "$R" --format json) || { echo "seed000-vm: no result file"; exit 1; }
for id in "HDD" "SSD" "BCache Writethrough" "BCache Writethrough + Discard" "BCache Writeback" \
          "BCache Writeback + Discard" "BCache Writearound" "BCache Writearound + Discard"; do
    n=$(jq --arg id "$id" '[.results[].entries[] | select(.identifier == $id)] | length' <<<"$json")
    [ "$n" -gt 0 ] || { echo "seed000-vm: no figures for '$id'"; fail=1; }
    want=$(tr 'A-Z' 'a-z' <<<"$id" | sed -n 's/^bcache \([a-z]*\).*/\1/p')
    got=$(jq -r --arg id "$id" '.systems[] | select(.identifier == $id) | .storage["Cache Mode (sysfs)"] // ""' <<<"$json")
    if [ "$got" != "$want" ]; then echo "seed000-vm: '$id': bcache mode '$got', section says '${want:-none}'"; fail=1; fi
done
pgrep -f "qemu-system-x86_64.*$W/img" >/dev/null && { echo "seed000-vm: a guest is still running"; fail=1; }
findmnt -rn -o TARGET | grep -q "^$W/" && { echo "seed000-vm: something is still mounted"; fail=1; }
[ -z "$(ls -A "$W/img")" ] || { echo "seed000-vm: left in the images directory: $(ls -A "$W/img")"; fail=1; }
"$SB" show "$R"
[ "$fail" -eq 0 ] && echo "seed000-vm: every configuration present, every bcache mode as configured, nothing left"
exit "$fail"
