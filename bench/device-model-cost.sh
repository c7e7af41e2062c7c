#!/bin/bash
# device-model-cost — what a modeled device's path costs per request (docs/devices.md,
# "Host-bound figures"). One ext4 configuration three ways, each a `scenario run` of the
# fio test at queue depth 1 (psync, 4 KiB, direct): a plain loop device over an image on
# tmpfs (no model), the same behind the modeled path with device-model = ram (the FUSE
# file, the guardian's queue, nothing to wait for), and device-model = ssd-850evo (whose
# datasheet says 10,000 random 4K reads/s at QD1). Prints IOPS, microseconds per request,
# the path's own cost per request (ram - plain), and how much of the modeled SSD's request
# time that cost is: a figure whose ram run comes within 20 % of it is host-bound.
#
#   bench/device-model-cost.sh [SECONDS]        (SECONDS: 5 per figure)
#
# Needs root, loop devices, /dev/fuse, mkfs.ext4. IMAGES=/dev/shm (tmpfs).
# Exit: 0 measured, 1 a run failed, 2 bad arguments, 130 interrupted.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
SB=${STORBENCH:-$SRC/storbench}
IMAGES=${IMAGES:-/dev/shm}
SECS=${1:-5}
[[ "$SECS" =~ ^[1-9][0-9]*$ ]] || { echo "device-model-cost: SECONDS must be a positive number" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "device-model-cost: needs root (loop devices, FUSE, mounts)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/device-model-cost.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$WORK/state" "$WORK/res"
cat >"$WORK/cost.ini" <<'INI'
[scenario]
title = Device model cost
[plain]
filesystem = ext4
[ram]
filesystem = ext4
device-model = ram
[ssd-850evo]
filesystem = ext4
device-model = ssd-850evo
INI
for type in randread randwrite; do
    STORBENCH_STATE_DIR=$WORK/state "$SB" scenario run "$WORK/cost.ini" \
        -s "fio:type=$type,engine=psync,iodepth=1,size=64m,runtime=$SECS,startdelay=0" \
        --result "cost-$type" --results-dir "$WORK/res" --images "$IMAGES" --image-size 256M \
        -n 3 --exact-runs >"$WORK/$type.log" 2>&1
    rc=$?
    [ $rc = 130 ] && exit 130
    [ $rc = 0 ] || { echo "device-model-cost: $type failed (exit $rc): $(tail -3 "$WORK/$type.log")" >&2; exit 1; }
done
python3 - "$WORK/res" <<'PY'
import json, os, sys
d = sys.argv[1]
print("%-10s %-12s %10s %12s" % ("test", "device", "IOPS", "us/request"))
for t in ("randread", "randwrite"):
    r = json.load(open(os.path.join(d, "cost-%s.json" % t)))["results"][0]
    iops = {e["identifier"]: e["mean"] * 1e6 / 4096 for e in r["entries"]}  # MB/s of 4 KiB requests
    for k in ("plain", "ram", "ssd-850evo"):
        print("%-10s %-12s %10.0f %12.1f" % (t, k, iops[k], 1e6 / iops[k]))
    path = 1e6 / iops["ram"] - 1e6 / iops["plain"]
    ssd = 1e6 / iops["ssd-850evo"]
    hb = abs(iops["ram"] - iops["ssd-850evo"]) <= 0.2 * iops["ssd-850evo"]
    print("%-10s the modeled path costs %.1f us per request over a plain loop device: %.0f %% of the modeled SSD's %.1f us%s"
          % (t, path, 100 * path / ssd, ssd, "; host-bound (ram within 20 %)" if hb else ""))
PY
