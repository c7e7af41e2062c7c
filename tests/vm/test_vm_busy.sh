# host-bound-check = busy in the device lab (docs/scenarios.md, "Host-bound without a twin"):
# each figure records its test's vCPU busy share (entries[].vcpu_busy_pct, percent of the
# measured window's virtual time), and a modeled configuration's figure whose vCPU was busy
# 100/1.2 % of its window or more is marked host-bound, with no ram twin built. About 2
# minutes niced (2 guests), so apart from make check; run by hand:
#   STORBENCH_BIN=$PWD/build/storbench STORBENCH_SRC=$PWD nice -n 15 bash tests/vm/test_vm_busy.sh
#
#  1. Disk-bound: fio random 4 KiB reads, psync, QD1, on ext4 over the modeled HDD (each read
#     some milliseconds of seek and turn, the lab's path about 50 us of it): the vCPU is idle
#     most of the window, the figure is not marked.
#  2. CPU-bound: fio random 4 KiB reads, libaio, QD32, on the modeled 850 EVO: the lab's one
#     vCPU carries every request's path in turn (its ceiling, about 27,000 a second, below
#     the model's 94,000): busy all the window, the figure is marked host-bound by the busy
#     share (host_bound.reference "vcpu busy"), with no twin's figure.
#     The file says host-bound-check = yes, which in the lab means the busy share.
#  Both: no ram twin was built (one guest a configuration), every figure has its share, the
#  console says the share and the count marked, nothing left behind.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"
need_guest busy
IMG=$T/img
mkdir -p "$IMG"
printf '%s\n' '[scenario]' 'title = Busy check' 'host-bound-check = busy' \
    '[HDD QD1]' 'filesystem = ext4' 'mkfs-options = -E lazy_itable_init=0,lazy_journal_init=0' \
    'device-model = hdd-hua723020' \
    '[SSD QD32]' 'filesystem = ext4' 'mkfs-options = -E lazy_itable_init=0,lazy_journal_init=0' \
    'device-model = ssd-850evo' >"$T/busy.ini"
ARGS="--vm --vm-accel tcg --vm-cpus 1 -n 1 --exact-runs --images $IMG --image-size 256M"
# (the HDD's file twice its 64 MB write cache: most reads go to the platters, not the cache)
RUN="runtime=2,ramp=1,startdelay=1"

# share ID: the vCPU busy share of identifier ID's figure in $T/r.json; mark ID: its mark's reference.
share() { "$SB" show "$T/r.json" --format json | jq -r --arg id "$1" '.results[].entries[] | select(.identifier == $id) | .vcpu_busy_pct // "none"'; }
mark() { "$SB" show "$T/r.json" --format json | jq -r --arg id "$1" '.results[].entries[] | select(.identifier == $id) | .host_bound.reference // "none"'; }
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

start=$(date +%s)
check_exit "disk-bound: QD1 random reads on the modeled HDD" 0 "$SB" scenario run "$T/busy.ini" --only "HDD QD1" $ARGS \
    -s "fio:type=randread,engine=psync,iodepth=1,size=128m,$RUN" --result "$T/r.json"
echo "# guest: $(( $(date +%s) - start )) s"
cp "$T/out" "$T/hdd.out"
hdd=$(share "HDD QD1")
echo "# HDD QD1: vCPU busy $hdd %"
if [ "$hdd" != none ] && below "$hdd" 50; then ok "disk-bound: its share recorded, the vCPU mostly idle ($hdd %)"
else not_ok "disk-bound: the vCPU mostly idle ($hdd %)"; fi
check "disk-bound: not marked" test "$(mark "HDD QD1")" = none
check "disk-bound: the console says none was marked" grep -q "^HDD QD1: 0 figures host-bound (the lab's vCPU busy 83.3 % " "$T/hdd.out"
check "the guest's result line gives the share" grep -q "guest|   Result: MB/s: .*, vCPU busy [0-9.]* %)" "$T/hdd.out"
check "no ram twin was built" bash -c "! grep -q 'again on device-model = ram' '$T/hdd.out'"

start=$(date +%s)
sed "s/^host-bound-check = busy/host-bound-check = yes/" "$T/busy.ini" >"$T/yes.ini" # yes: busy in the lab
check_exit "CPU-bound: QD32 random reads on the modeled 850 EVO (host-bound-check = yes)" 0 "$SB" scenario run "$T/yes.ini" --only "SSD QD32" $ARGS \
    -s "fio:type=randread,engine=libaio,iodepth=32,size=32m,$RUN" --result "$T/r.json"
echo "# guest: $(( $(date +%s) - start )) s"
ssd=$(share "SSD QD32")
echo "# SSD QD32: vCPU busy $ssd %"
if [ "$ssd" != none ] && ! below "$ssd" 83.34; then ok "CPU-bound: the vCPU busy all but a little of its window ($ssd %)"
else not_ok "CPU-bound: the vCPU busy ($ssd %)"; fi
check "CPU-bound: marked host-bound by the busy share" test "$(mark "SSD QD32")" = "vcpu busy"
check "CPU-bound: no twin's figure" test "$("$SB" show "$T/r.json" --format json |
    jq -r '.results[].entries[] | select(.identifier == "SSD QD32") | .host_bound | has("reference_mean")')" = false
check "CPU-bound: the console says one was marked" grep -q "^SSD QD32: 1 figure host-bound (the lab's vCPU busy" "$T/out"
check "no ram twin was built" bash -c "! grep -q 'again on device-model = ram' '$T/out'"
check_exit "show: the text page marks it" 0 "$SB" show "$T/r.json" --width 100
check "text: the SSD row host-bound, the HDD's not" bash -c "grep -q '^SSD QD32 (host-bound)' '$T/out' && ! grep -q '^HDD QD1 (host-bound)' '$T/out'"

if pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null; then not_ok "no guest running"; else ok "no guest running"; fi
if [ -z "$(ls -A "$IMG")" ]; then ok "images dir empty"; else not_ok "images dir empty ($(ls -A "$IMG"))"; fi
finish
