# The device lab: `scenario run --vm` in virtual time (QEMU's -icount shift=0,sleep=off, the
# disks' models served inside the guest; docs/scenarios.md "Virtual time"). About 2 minutes
# niced (4 guests, 6 with STRESS=1), so apart from make check; run by hand:
#   STORBENCH_BIN=$PWD/build/storbench STORBENCH_SRC=$PWD nice -n 15 bash tests/vm/test_vm_lab.sh
#
#  1. A modeled QD1 random read takes the model's time: fio randread, psync, 4 KiB, QD1 on
#     ext4 over a modeled 850 EVO whose page read is 20 ms (read-us=20000), so that the
#     lab's own path (about 55 us of virtual time a request) is under 1 % of it: the
#     modeled read is 20,025 us (read-us + ctrl-us 10.6 + cmd-us 6.8 + 4 KiB over the
#     540 MB/s link, 7.6; docs/devices.md), and the run's mean time per read (from its
#     IOPS) and its fastest read are within 1 % of it. The record names virtual time and
#     the disk; the guest's server says it never woke for nothing (0 idle wake-ups).
#     The same read dilated x4 (--vm-dilate 4: the model's delays x4 in the guest, the
#     job's durations x4, the figures scaled back) is the model's time again within 1 %;
#     the result says 2 s of runtime and records the dilation; the guest stretched its timers.
#     Dbench in the same guest (time=2, no warm-up) ran 2 s of the model's time (8 of the
#     guest's: its time stretched x4): its operations over its operations a second, the one
#     a count and the other a rate scaled back x4, are 2 s again, and its option says 2.
#  2. A SIGKILL of storbench while its guest measures: the guest dies with it (nothing of
#     the lab runs on the host but QEMU), and the next run removes what was left.
#     The same job again gives the same figures, within 1 % (the guest's whole input is in
#     its initrd and it never halts, so nothing in it depends on the host and a run repeats
#     the last one exactly; the guest counts its 9p requests while storbench runs: none).
#  3. STRESS=1 (needs stress-ng): the same job with both host cores busy (stress-ng --cpu 2)
#     gives the same figures, within 1 %.
# After each run: no QEMU of ours left, the images directory empty.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"
need_guest lab
IMG=$T/img
mkdir -p "$IMG"
MODEL_US=20025
# The inode tables and the journal are written by mkfs, not by ext4's lazy init in the
# background while the reads are measured (its writes, on the model's dies, landed in the window
# or not depending on the boot's phase: means a read 0.25 % to 1.6 % above the model's).
printf '%s\n' '[scenario]' 'title = Lab check' '[Slow read]' 'filesystem = ext4' \
    'mkfs-options = -E lazy_itable_init=0,lazy_journal_init=0' \
    'device-model = ssd-850evo,read-us=20000' >"$T/lab.ini"
JOB="-s fio:type=randread,engine=psync,iodepth=1,size=32m,runtime=2,ramp=0,startdelay=1"
ARGS="--vm --vm-accel tcg --vm-cpus 1 -n 1 --exact-runs --images $IMG --image-size 256M"

# fig FILE NAME: a secondary figure of the one result in FILE ("iops", "lat_min" ...).
fig() { "$SB" show "$1" --format json | jq -r --arg n "$2" '.results[0].entries[0].secondary[] | select(.name == $n) | .value'; }
# within A B PCT: |A - B| <= PCT % of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'; }
nothing_left() {
    if pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null; then not_ok "$1: no guest running"; else ok "$1: no guest running"; fi
    if [ -z "$(ls -A "$IMG")" ]; then ok "$1: images dir empty"; else not_ok "$1: images dir empty ($(ls -A "$IMG"))"; fi
}

start=$(date +%s)
check_exit "a QD1 random read in virtual time (the default under TCG)" 0 "$SB" scenario run "$T/lab.ini" $ARGS $JOB \
    --result "$T/r1.json"
echo "# guest: $(( $(date +%s) - start )) s"
iops1=$(fig "$T/r1.json" iops) min1=$(fig "$T/r1.json" lat_min)
per=$(awk -v i="$iops1" 'BEGIN { printf "%.1f", 1e6 / i }')
if within "$per" $MODEL_US 1; then ok "mean time a read: $per us, the model's $MODEL_US us within 1 %"
else not_ok "mean time a read: $per us, the model's $MODEL_US us"; fi
if within "$min1" $MODEL_US 1; then ok "fastest read: $min1 us, within 1 % of the model's"
else not_ok "fastest read: $min1 us, the model's $MODEL_US us"; fi
vmf=$("$SB" show "$T/r1.json" --format json | jq -r '.systems[0].storage.VM')
check "recorded: virtual time, shift 0 ($vmf)" test -n "$(echo "$vmf" | grep "TCG (emulated CPU), 1 vCPU, .*virtual time (icount shift=0, sleep=off")"
dev=$("$SB" show "$T/r1.json" --format json | jq -r '.systems[0].storage."Emulated Devices"')
check "recorded: the disk in the guest ($dev)" test "$dev" = "1: 268 MB in guest RAM, modeled ssd-850evo,read-us=20000 (in the guest, virtual time), non-rotational"
echo "# $(grep -a "guest| lab: nbd0" "$T/out")"
check "nothing was read from the host while storbench ran" grep -q "guest| storbench-vm: 9p requests to the host while storbench ran: 0$" "$T/out"
check "the guest's server never woke for nothing" grep -q "guest| lab: nbd0 ssd-850evo,read-us=20000: [0-9]* requests, 0 idle wake-ups" "$T/out"
nothing_left "after the first run"

# Time dilation (--vm-dilate 4): the model's delays x4 in the guest, the job's durations x4,
# the figures scaled back, so the QD1 read is the model's 20,025 us again, within 1 %.
start=$(date +%s)
check_exit "the QD1 read dilated x4" 0 "$SB" scenario run "$T/lab.ini" $ARGS --vm-dilate 4 $JOB \
    -s dbench:time=2,warmup=0,clients=1 --result "$T/rd.json"
echo "# dilated guest: $(( $(date +%s) - start )) s"
iopsd=$(fig "$T/rd.json" iops) mind=$(fig "$T/rd.json" lat_min) secd=$(fig "$T/rd.json" seconds)
perd=$(awk -v i="$iopsd" 'BEGIN { printf "%.1f", 1e6 / i }')
if within "$perd" $MODEL_US 1; then ok "dilated x4: mean time a read $perd us, the model's $MODEL_US us within 1 %"
else not_ok "dilated x4: mean time a read $perd us, the model's $MODEL_US us"; fi
if within "$mind" $MODEL_US 1; then ok "dilated x4: fastest read $mind us, within 1 % of the model's"
else not_ok "dilated x4: fastest read $mind us, the model's $MODEL_US us"; fi
# 2 s measured in the model's time (8 s of the guest's), and the option says 2 again
if within "$secd" 2 5; then ok "dilated x4: measured $secd s of the model's time"; else not_ok "dilated x4: measured $secd s"; fi
check "dilated x4: the result's runtime is the model's 2 s" test "$("$SB" show "$T/rd.json" --format json |
    jq -r '.results[0].options.runtime')" = 2
check "dilated x4: recorded in the system" test "$("$SB" show "$T/rd.json" --format json |
    jq -r '.systems[0].software."System Layer"')" = "QEMU/TCG (emulated CPU, virtual time, dilated x4)"
check "dilated x4: the Time Dilation key" test -n "$("$SB" show "$T/rd.json" --format json |
    jq -r '.systems[0].storage."Time Dilation" // empty' | grep '^x4: ')"
dbf() { "$SB" show "$T/rd.json" --format json | jq -r --arg n "$1" '.results[] | select(.test == "dbench") |
    .entries[0].secondary[] | select(.name == $n) | .value'; }
dbsec=$(awk -v o="$(dbf operations)" -v r="$(dbf ops_per_sec)" 'BEGIN { if (r > 0) printf "%.3f", o / r }')
# the driver looks at the clock every 50 ms of the model's time: up to 2.5 % over
if within "${dbsec:-0}" 2 10; then ok "dilated x4: dbench measured $dbsec s of the model's time"
else not_ok "dilated x4: dbench measured ${dbsec:-no} s, not the model's 2"; fi
check "dilated x4: dbench's time is the model's 2 s" test "$("$SB" show "$T/rd.json" --format json |
    jq -r '.results[] | select(.test == "dbench") | .options.time')" = 2
check "dilated x4: the guest stretched its timers" grep -q "guest| storbench-vm: dilated x4: model delays x4, vm.dirty_expire_centisecs 3000->12000" "$T/out"
check "dilated x4: ext4 mounted with its commit x4" test -n "$("$SB" show "$T/rd.json" --format json |
    jq -r '.systems[0].storage."Kernel Mount Options" // empty' | grep 'commit=20')"
nothing_left "after the dilated run"

"$SB" scenario run "$T/lab.ini" $ARGS $JOB --result "$T/killed.json" >"$T/kill.out" 2>&1 &
kpid=$!
for _ in $(seq 600); do grep -q "guest| Built on /dev/nbd0" "$T/kill.out" && break; sleep 0.5; done
{ kill -KILL "$kpid"; wait "$kpid"; } 2>/dev/null
for _ in $(seq 20); do pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null || break; sleep 0.5; done
if pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null; then not_ok "SIGKILL: the guest died with storbench"
else ok "SIGKILL: the guest died with storbench"; fi
check "SIGKILL: nothing saved" test ! -e "$T/killed.json"
check_exit "the same job again" 0 "$SB" scenario run "$T/lab.ini" $ARGS $JOB --result "$T/r2.json"
iops2=$(fig "$T/r2.json" iops) min2=$(fig "$T/r2.json" lat_min)
echo "# IOPS $iops1 then $iops2; fastest read $min1 then $min2 us"
if within "$iops2" "$iops1" 1 && within "$min2" "$min1" 1; then ok "the same figures again, within 1 %"
else not_ok "the same figures again (IOPS $iops1, $iops2; fastest $min1, $min2)"; fi
nothing_left "after the second run (and what the SIGKILL left)"

if [ "${STRESS:-0}" = 1 ] && command -v stress-ng >/dev/null; then
    stress-ng --cpu 2 --timeout 600s >/dev/null 2>&1 &
    spid=$!
    check_exit "the same job with both host cores busy" 0 "$SB" scenario run "$T/lab.ini" $ARGS $JOB --result "$T/r3.json"
    kill "$spid"
    wait "$spid" 2>/dev/null
    iops3=$(fig "$T/r3.json" iops) min3=$(fig "$T/r3.json" lat_min)
    echo "# loaded host: IOPS $iops3; fastest read $min3 us"
    if within "$iops3" "$iops1" 1 && within "$min3" "$min1" 1; then ok "a loaded host gives the same figures, within 1 %"
    else not_ok "a loaded host gives the same figures (IOPS $iops1, $iops3; fastest $min1, $min3)"; fi
    nothing_left "after the loaded run"
else
    ok "a loaded host # skip: STRESS=1 and stress-ng"
fi
finish
