#!/bin/bash
# seed-shape — do storbench's modeled devices give the seed pages' shape? (issue 29)
# Builds seed 000's configurations (examples/seed000-cache.ini as it is: an HDD, an SSD,
# bcache with the SSD caching the HDD) in throwaway QEMU guests (`scenario run --vm`) whose
# disks are device models served by nbdkit (the example's device-model: the seed's Samsung
# 850 EVO, ssd-850evo, and Hitachi HUA723020ALA640, hdd-hua723020; its host-bound-check = yes
# marks each figure whose test kept the lab's vCPU busy 5/6 of its window, RAM=1 builds each
# configuration again on ram models in a guest, its ram twin, and marks by it instead), and seed 001's
# (examples/seed001-btrfs.ini: btrfs on one and two Samsung 850 EVOs) the same way, with
# bench/seed-shape-native.sh's battery (the seed's file-system tests) and its rules; runs seed 000's battery on each of seed 000's (and with RAM=1 on its ram twin, the
# host-bound reference), and prints per test
# the seed's and storbench's configuration ÷ baseline ratios (baseline: the HDD alone
# for seed 000, the single disk for seed 001), how many configuration pairs are
# ordered as in the seed, and how many of the seed's effects (>= 20 %) are reproduced
# in direction and within x1.5. The seed figures are the seed pages themselves
# (tests/data/seeds), read with `storbench import`. Rules: bench/seed-shape.jq.
#
#   bench/seed-shape.sh [EXTRA SCENARIO OPTIONS]        e.g. --vm-accel tcg
#
# Scale (documented in docs/scenarios.md, "Seed shape"): fio with the seed profile's
# timing (fio 2.1.13's: 5 s start delay, 5 s ramp, 20 s measured; the modeled HDD's 64 MB
# write cache is full within the ramp) on a 256 MiB file (the profile's 1 GiB would not fit
# the 1 GiB images), SQLite at its --quick 250 inserts a pass, one run each (-n 1
# --exact-runs), 1 GiB images: under TCG each guest takes minutes. Environment:
#   CONFIGS000="HDD|SSD|BCache Writethrough|BCache Writeback"   seed 000's sections built ("": none)
#   RAM=           unset: the example's host-bound-check = yes (in the lab: the vCPU busy share
#                  marks host-bound figures, no twin); 1: host-bound-check = twin, each
#                  configuration's ram twin too (twice the guests; each figure then has both the
#                  twin's mark and its busy share); 0: no host-bound marks
#   CONFIGS001="Single Disk|2-Disk RAID0|..."   seed 001's sections built (all six by default)
#   SEED001=vm     seed 001 in guests as seed 000 (native: bench/seed-shape-native.sh on modeled
#                  loop devices, root and FUSE; 0: skip)
#   MODEL=SPEC     seed 001's device-model line replaced (e.g. 'ssd-850evo,slc-fill=1,flush-us=1760'),
#                  in guests as natively (to see what one parameter does to the shape)
#   IMAGES=/var/tmp  IMAGE_SIZE=1G
#   NICE=10        the runs' niceness (under TCG a niced guest on a busy host measures the
#                  host: the ram runs then mark it so)
#   KEEP=DIR       the result files go there and stay (a configuration already in them is
#                  not run again: an interrupted run is resumed)
# Exit: 0 when every run completed (the shape is reported, not judged), 1 otherwise,
# 130 interrupted.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$ROOT/storbench}
W=$(mktemp -d "${IMAGES:-/var/tmp}/seed-shape.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$W/img"
fail=0
FIO="runtime=20,ramp=5,startdelay=5,size=256m"
TESTS=(-s "fio:type=randwrite,$FIO" -s "fio:type=write,$FIO" -s "sqlite:count=250")
RUNOPTS=(-n 1 --exact-runs --images "$W/img" --image-size "${IMAGE_SIZE:-1G}")
# The battery, and how each test's result is found on the seed page and on storbench's.
BATTERY='[{"label":"fio random write 4K QD64 (MB/s)","test":"fio","seed":"Random Write","ours":"Random Write"},
          {"label":"fio sequential write 4K QD64 (MB/s)","test":"fio","seed":"Sequential Write","ours":"Sequential Write"},
          {"label":"SQLite (seconds, lower is better)","test":"sqlite","seed":".","ours":"."}]'

"$SB" import "$ROOT"/tests/data/seeds/000_*.txt --result "$W/seed000.json" >/dev/null || exit 1
"$SB" import "$ROOT"/tests/data/seeds/001_*.txt --result "$W/seed001.json" >/dev/null || exit 1

compare() { # TITLE SEED OURS RAM MAP BASELINE
    echo; echo "=== $1"
    jq -n -r --slurpfile seed "$2" --slurpfile ours "$3" --slurpfile ram "$4" --argjson map "$5" \
        --arg base "$6" --argjson tests "$BATTERY" -f "$ROOT/bench/seed-shape.jq"
}
json() { if [ -f "$1" ]; then "$SB" show "$1" --format json; else echo '{}'; fi; }
have() { [ -f "$1" ] && json "$1" | jq -e --arg id "$2" '[.systems[] | select(.identifier == $id)] | length > 0' >/dev/null; }
R=${KEEP:-$W}
mkdir -p "$R"
EXTRA=("$@")

# example SEED FILE: the example to build from: as it is (host-bound-check = yes, which in the
# lab marks a figure host-bound by its test's vCPU busy share, no twin), with ram twins (RAM=1:
# host-bound-check = twin; each figure then carries the twin's mark and its busy share both),
# or without marks (RAM=0).
example() {
    case "${RAM:-}" in
    1) sed 's/^host-bound-check = .*/host-bound-check = twin/' "$2" >"$W/m$1.ini" ;;
    0) sed '/^host-bound-check/d' "$2" >"$W/m$1.ini" ;;
    *) echo "$2"; return ;;
    esac
    echo "$W/m$1.ini"
}
# run_seed SEED INI CONFIG... -- TEST OPTION...: each configuration in its own guest with the
# tests, one at a time (an interrupted run keeps what it finished; with KEEP the result file
# $R/oursSEED.json lives there and a configuration already in it is not run again).
run_seed() {
    local seed=$1 ini=$2 out=$R/ours$1.json c start=$(date +%s) configs=()
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do configs+=("$1"); shift; done
    shift
    for c in "${configs[@]}"; do
        if have "$out" "$c"; then echo "seed-shape: [$c] already in $out"; continue; fi
        nice -n "${NICE:-10}" "$SB" scenario run "$ini" --vm --only "$c" "$@" "${RUNOPTS[@]}" \
            --result "$out" "${EXTRA[@]}" || fail=1
        echo "seed-shape: seed $seed [$c] on modeled devices$([ "${RAM:-}" = 1 ] && echo " and its ram twin"): $(( $(date +%s) - start )) s in all"
    done
}

# --- Seed 000 in the VM: the example itself, each configuration with its ram twin ---
IFS='|' read -r -a C000 <<<"${CONFIGS000-HDD|SSD|BCache Writethrough|BCache Writeback}"
run_seed 000 "$(example 000 "$ROOT/examples/seed000-cache.ini")" "${C000[@]}" -- "${TESTS[@]}"
json "$W/seed000.json" >"$W/s000.j"; json "$R/ours000.json" >"$W/o000.j"; json "$R/ram000.json" >"$W/r000.j"
[ "${#C000[@]}" -gt 0 ] && compare "seed 000 (BCache HDD + SSD) in QEMU guests (TCG where no KVM), modeled hdd-hua723020 and ssd-850evo" \
    "$W/s000.j" "$W/o000.j" "$W/r000.j" \
    '{"HDD":"Hitachi HUA72302 2TB","SSD":"Samsung 850 EVO 120GB","BCache Writethrough":"BCache - Writethrough",
      "BCache Writethrough + Discard":"BCache - Writethrough + Discard","BCache Writeback":"BCache - Writeback",
      "BCache Writeback + Discard":"Bcache - Writeback + Discard",
      "BCache Writearound + Discard":"BCache - Writearound + Discard"}' HDD

# --- Seed 001 in the lab: examples/seed001-btrfs.ini, each configuration in its own guest ---
# (the seed's file-system tests at bench/seed-shape-native.sh's scale, all five in one guest a
# configuration, with the example's marks as for seed 000 (RAM); SEED001=native runs
# bench/seed-shape-native.sh on modeled loop devices instead, as before)
IFS='|' read -r -a C001 <<<"${CONFIGS001-Single Disk|2-Disk RAID0|2-Disk RAID1|2-Disk RAID1 + LZO|2-Disk RAID1 + LZO + Nobarrier|2-Disk RAID1 + LZO + Nobarrier + Noatime}"
T001=(-s "fs-mark:test=custom,files=100" -s "fs-mark:test=custom,files=50,threads=4"
      -s "fs-mark:test=custom,files=200,dirs=32" -s "dbench:time=5,warmup=2" -s "sqlite:count=250")
if [ "${SEED001:-vm}" = 0 ] || [ "${#C001[@]}" = 0 ]; then
    echo; echo "=== seed 001 (Btrfs RAID): skipped"
elif [ "${SEED001:-vm}" = native ]; then
    echo; echo "=== seed 001 (Btrfs RAID) natively on modeled ssd-850evo loop devices (bench/seed-shape-native.sh)"
    STORBENCH=$SB bash "$ROOT/bench/seed-shape-native.sh" || fail=1
else
    EX001=$(example 001 "$ROOT/examples/seed001-btrfs.ini")
    if [ -n "${MODEL:-}" ]; then # as bench/seed-shape-native.sh's MODEL: another device-model line
        sed "s/^device-model = ssd-850evo.*/device-model = $MODEL/" "$EX001" >"$W/m001b.ini"; EX001=$W/m001b.ini
        grep -q "^device-model = $MODEL\$" "$EX001" || { echo "seed-shape: MODEL: no device-model line replaced" >&2; exit 2; }
        echo "seed-shape: seed 001 with device-model = $MODEL"
    fi
    run_seed 001 "$EX001" "${C001[@]}" -- "${T001[@]}"
    echo; echo "=== seed 001 (Btrfs RAID) in QEMU guests (virtual time under TCG), modeled ssd-850evo"
    if [ -f "$R/ours001.json" ]; then
        mkdir -p "$W/s001"
        "$SB" show "$R/ours001.json" --format json >"$W/s001/lab.json" || fail=1
        LAB001=$W/s001/lab.json bash "$ROOT/bench/seed-shape-native.sh" --reuse "$W/s001" || fail=1
    else
        echo "seed-shape: no seed 001 result"; fail=1
    fi
fi
[ -n "${KEEP:-}" ] && echo "seed-shape: result files in $KEEP"
pgrep -f "nbdkit.*$W/img" >/dev/null && { echo "seed-shape: an nbdkit is still running"; fail=1; }
[ -z "$(ls -A "$W/img")" ] || { echo "seed-shape: left in the images directory: $(ls -A "$W/img")"; fail=1; }
exit "$fail"
