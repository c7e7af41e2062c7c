#!/bin/bash
# seed-shape — does storbench, on modeled devices, show what a seed page shows? The native
# part: seed 001 ("Btrfs RAID Samsung Linux 4.4": btrfs single, RAID0, RAID1, RAID1 + LZO,
# + nobarrier, + noatime, on two Samsung 850 EVO 120 GB) built by examples/seed001-btrfs.ini
# on two modeled 850 EVOs (device-model = ssd-850evo,slc-fill=1: preconditioned, their SLC
# buffer full as the seed's drives had it; docs/devices.md), its file-system
# battery at a small documented scale, and the same again on device-model = ram (the
# same FUSE path with no device behind it). Prints, per test and configuration, the seed's
# and storbench's configuration ÷ Single Disk ratio, marks a figure host-bound when the
# ram run does no better than 20 % beyond it (or worse: the host, not the model, bounds it), counts the
# seed's effects (ratios of 20 % or more) reproduced in direction and within ×1.5 (host-
# bound ones left out), and the pairs of configurations ordered as in the seed.
#
#   bench/seed-shape.sh [--reuse DIR] [RUNS]       (RUNS: 3 per figure)
#
# Needs root, loop devices, /dev/fuse, btrfs. Environment: IMAGES=/dev/shm (the images;
# tmpfs, so this machine's disk does not show through), IMAGE_SIZE=2G. --reuse DIR reads the
# result files a previous run left in DIR (s001-<test>-<model>.json) instead of measuring.
# MODEL='ssd-850evo,slc-fill=1,flush-us=0' replaces the example's device-model line (to see
# how a parameter moves the shape); KEEP=DIR keeps the result files there for --reuse.
# Scale (seed in brackets): fs-mark 100 files of 1 MiB (1000), 4 threads × 50 (× 5000),
# 32 dirs 200 files (4000); dbench 6 clients 5 s after 2 s warm-up (600 s after 120);
# sqlite 250 inserts (2500). Seed 000 (an HDD, an SSD, bcache; in the VM) is not here yet.
# Exit: 0 measured and printed, 1 a run failed, 2 bad arguments, 130 interrupted.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/.." && pwd)
SB=${STORBENCH:-$SRC/storbench}
IMAGES=${IMAGES:-/dev/shm}
IMAGE_SIZE=${IMAGE_SIZE:-2G}
SEED=$SRC/tests/data/seeds/001_5b3cf86a040befc6.txt
usage() { echo "seed-shape: $* (usage: bench/seed-shape.sh [--reuse DIR] [RUNS])" >&2; exit 2; }
REUSE=""
RUNS=3
while [ $# -gt 0 ]; do
    case "$1" in
    --reuse) [ $# -ge 2 ] || usage "--reuse needs a directory"; REUSE=$2; shift 2 ;;
    [0-9]*) RUNS=$1; shift ;;
    *) usage "unknown argument '$1'" ;;
    esac
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || usage "RUNS must be a positive number"
[ -r "$SEED" ] || { echo "seed-shape: $SEED missing" >&2; exit 1; }

TESTS=("fsm1000:fs-mark:test=custom,files=100" "fsm4t:fs-mark:test=custom,files=50,threads=4"
       "fsm32d:fs-mark:test=custom,files=200,dirs=32" "dbench:dbench:time=5,warmup=2" "sqlite:sqlite:count=250")
MODEL=${MODEL:-}
KEEP=${KEEP:-}
WORK=""
cleanup() {
    [ -n "$WORK" ] || return 0
    [ -n "$KEEP" ] && [ -d "$WORK/res" ] && mkdir -p "$KEEP" && cp "$WORK"/res/*.json "$KEEP"/ 2>/dev/null
    rm -rf "$WORK"; return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if [ -n "$REUSE" ]; then
    DIR=$REUSE
    [ -d "$DIR" ] || usage "--reuse $DIR: not a directory"
else
    [ "$(id -u)" = 0 ] || { echo "seed-shape: needs root (loop devices, FUSE, mounts)" >&2; exit 1; }
    WORK=$(mktemp -d /tmp/seed-shape.XXXXXX) || exit 1
    DIR=$WORK/res
    mkdir -p "$DIR" "$WORK/state"
    # (its own ram runs are the reference: the example's host-bound-check twins are not run)
    sed '/^host-bound-check/d' "$SRC/examples/seed001-btrfs.ini" >"$WORK/seed001-model.ini"
    [ -n "$MODEL" ] && sed -i "s/^device-model = ssd-850evo.*/device-model = $MODEL/" "$WORK/seed001-model.ini"
    sed 's/^device-model = ssd-850evo.*/device-model = ram/' "$WORK/seed001-model.ini" >"$WORK/seed001-ram.ini"
    for t in "${TESTS[@]}"; do
        key=${t%%:*} sel=${t#*:}
        for model in ssd-850evo ram; do
            ini=$WORK/seed001-model.ini
            [ "$model" = ram ] && ini=$WORK/seed001-ram.ini
            echo "seed-shape: $key on $model ($(date -u +%T))" >&2
            STORBENCH_STATE_DIR=$WORK/state "$SB" scenario run "$ini" -s "$sel" --result "s001-$key-$model" \
                --results-dir "$DIR" --images "$IMAGES" --image-size "$IMAGE_SIZE" -n "$RUNS" --exact-runs \
                >"$WORK/$key-$model.log" 2>&1
            rc=$?
            [ $rc = 130 ] && exit 130
            [ $rc = 0 ] || { echo "seed-shape: $key on $model failed (exit $rc): $(tail -3 "$WORK/$key-$model.log")" >&2; exit 1; }
        done
    done
fi

python3 - "$SEED" "$DIR" <<'PY'
import json, os, re, sys
seed_path, d = sys.argv[1], sys.argv[2]
tests = [("fsm1000", "FS-Mark 1000 files", "Test: 1000 Files, 1MB Size"),
         ("fsm4t", "FS-Mark 4 threads", "Test: 5000 Files, 1MB Size, 4 Threads"),
         ("fsm32d", "FS-Mark 32 dirs", "Test: 4000 Files, 32 Sub Dirs, 1MB Size"),
         ("dbench", "Dbench 6 clients", "Client Count: 6"),
         ("sqlite", "SQLite (seconds)", "SQLite 3.8.10.2")]
configs = ["Single Disk", "2-Disk RAID0", "2-Disk RAID1", "2-Disk RAID1 + LZO",
           "2-Disk RAID1 + LZO + Nobarrier", "2-Disk RAID1 + LZO + Nobarrier + Noatime"]
lines = open(seed_path).read().split("\n")

def seed_block(head):
    i = next(k for k, l in enumerate(lines) if l.strip() == head)
    out = {}
    for l in lines[i + 1:i + 12]:
        m = re.match(r"^(.*?) \.+ ([0-9.]+) +\|", l)
        if m:
            out[m.group(1).strip()] = float(m.group(2))
        elif out:
            break
    return out

lab = os.environ.get("LAB001")  # bench/seed-shape.sh's lab run: the five tests in one file
lab = json.load(open(lab)) if lab else None

def ours(key, model):
    if lab is not None:
        test, opts = {"fsm1000": ("fs-mark", {"files": "100"}), "fsm4t": ("fs-mark", {"threads": "4"}),
                      "fsm32d": ("fs-mark", {"dirs": "32"}), "dbench": ("dbench", {}), "sqlite": ("sqlite", {})}[key]
        r = next(x for x in lab["results"] if x["test"] == test and
                 all(str(x.get("options", {}).get(k)) == v for k, v in opts.items()))
        if model == "marked":  # host-bound-check's marks (its ram twin's, or the lab's vCPU busy share)
            return {e["identifier"]: "host_bound" in e for e in r["entries"]}
        if model == "busy":  # the test's vCPU busy share in the lab, percent
            return {e["identifier"]: e.get("vcpu_busy_pct") for e in r["entries"]}
        if model == "ram":  # the ram twin's figure where it was within 20 % (host-bound), else none
            return {e["identifier"]: e["host_bound"].get("reference_mean") if "host_bound" in e else None for e in r["entries"]}
        return {e["identifier"]: e["mean"] for e in r["entries"]}
    p = os.path.join(d, "s001-%s-%s.json" % (key, model))
    if not os.path.exists(p):
        p = os.path.join(d, "s001-%s-seed001-%s.json" % (key, "btrfs" if model == "ssd-850evo" else "ram"))
    r = json.load(open(p))["results"][0]
    return {e["identifier"]: e["mean"] for e in r["entries"]}

effects = repro = hb_effects = 0
pairs = agree = pairs_nhb = agree_nhb = 0
print("%-20s %-42s %8s %8s %8s  %s" % ("test", "configuration", "seed", "modeled", "ram", "÷ Single Disk"))
for key, name, head in tests:
    s, m, r = seed_block(head), ours(key, "ssd-850evo"), ours(key, "ram")
    # host-bound: the ram run does no better than 20 % beyond the modeled one (or worse), the
    # rule of scenario/modeled_ref.c (host-bound-check); SQLite's seconds: lower is better
    low = key == "sqlite"
    marked = ours(key, "marked") if lab is not None else {}
    bz = ours(key, "busy") if lab is not None else {}
    hb = {c: marked.get(c, False) or (r.get(c) is not None and (m[c] / r[c] if low else r[c] / m[c]) < 1.2) for c in configs}
    for c in configs[1:]:
        rs, ro = s[c] / s[configs[0]], m[c] / m[configs[0]]
        bound = hb[c] or hb[configs[0]]
        mark = ""
        if abs(rs - 1) >= 0.2 - 1e-9 or rs <= 1 / 1.2:
            ok = (rs > 1) == (ro > 1) and max(ro / rs, rs / ro) <= 1.5
            if bound:
                hb_effects += 1
                mark = "effect, host-bound (left out)"
            else:
                effects += 1
                repro += ok
                mark = "effect " + ("reproduced" if ok else "NOT reproduced")
        elif bound:
            mark = "host-bound"
        print("%-20s %-42s %8.2f %8.2f %8s  seed %.2f ours %.2f  %s" % (name, c, s[c], m[c], "-" if r.get(c) is None else "%.2f" % r[c], rs, ro,
              mark + ("  [vCPU busy %.0f %%]" % bz[c] if bz.get(c) is not None else "")))
    for i in range(len(configs)):
        for j in range(i + 1, len(configs)):
            a, b = configs[i], configs[j]
            same = (s[a] > s[b]) == (m[a] > m[b])
            pairs += 1
            agree += same
            if not (hb[a] or hb[b]):
                pairs_nhb += 1
                agree_nhb += same
print()
print("seed effects of 20 %% or more: %d not host-bound, %d reproduced in direction and within x1.5 (%s); %d host-bound, left out"
      % (effects, repro, "%.0f %%" % (100.0 * repro / effects) if effects else "-", hb_effects))
print("pairs of configurations ordered as in the seed: %d of %d (%.0f %%); of pairs without a host-bound figure: %d of %d%s"
      % (agree, pairs, 100.0 * agree / pairs, agree_nhb, pairs_nhb,
         " (%.0f %%)" % (100.0 * agree_nhb / pairs_nhb) if pairs_nhb else ""))
PY
