# storbench scenario --vm without booting a guest (make vm-check boots them,
# tests/vm/test_vm_boot.sh): check --vm shows each device's emulation and the
# guest's kernel; the --vm options' refusals; --vm with --devices; md and
# device keys refused in the file with their line; a configuration the guest
# could build but this kernel cannot is named by check without --vm; the
# internal vm-guest refuses a directory that run --vm did not write.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

EX=$SRC/examples

check_exit "check --vm seed000" 0 "$SB" scenario check "$EX/seed000-cache.ini" --vm --vm-time host
if grep -q "^  HDD: ext4 over 1 device, modeled as hdd-hua723020" "$T/out" &&
   grep -q "device 1: modeled hdd-hua723020,span-gb=2000 (nbdkit), rotational" "$T/out" &&
   [ "$(grep -c '^  [^ ]' "$T/out")" -eq 8 ]; then ok "seed000 --vm plan: 8 configurations, the HDD the seed's (modeled)"
else not_ok "seed000 --vm plan ($(cat "$T/out"))"; fi
if grep -A2 "^  BCache Writeback + Discard" "$T/out" | grep -q "device 1: modeled ssd-850evo (nbdkit), non-rotational" &&
   grep -A2 "^  BCache Writeback + Discard" "$T/out" | grep -q "device 2: modeled hdd-hua723020"; then
    ok "seed000 --vm: bcache over the seed's SSD caching its HDD"
else not_ok "seed000 --vm: bcache devices ($(cat "$T/out"))"; fi
# device-class without a device-model under --vm: the class's preset (where nbdkit and the
# filter are), QEMU's throttling where numbers are given or nbdkit is missing, and no key
# at all the plain unthrottled disk of older files.
printf '%s\n' '[c]' 'filesystem = ext4' 'device-class = hdd' '[t]' 'filesystem = ext4' 'device-class = hdd' \
    'device-iops = 180' 'device-bandwidth = 150M' '[s]' 'filesystem = ext4' 'device-class = ssd' \
    '[n]' 'filesystem = ext4' >"$T/cls.ini"
check_exit "check --vm, device-class without device-model" 0 "$SB" scenario check "$T/cls.ini" --vm --vm-time host
if grep -A1 "^  c:" "$T/out" | grep -q "device 1: modeled hdd-hua723020 (nbdkit, device-class hdd), rotational" &&
   grep -A1 "^  s:" "$T/out" | grep -q "device 1: modeled ssd-850evo (nbdkit, device-class ssd), non-rotational"; then
    ok "--vm: device-class hdd and ssd name the seeds' presets"
elif ! command -v nbdkit >/dev/null || ! [ -f "$(dirname "$SB_BIN")/storbench-nbdkit-model.so" ]; then
    ok "--vm: device-class presets # skip: needs nbdkit and the filter"
else not_ok "--vm: device-class hdd and ssd name the seeds' presets ($(cat "$T/out"))"; fi
if grep -A1 "^  t:" "$T/out" | grep -q "device 1: HDD-like, 180 IOPS, [0-9]* MB/s, rotational" &&
   grep -A1 "^  n:" "$T/out" | grep -q "device 1: SSD-like, unthrottled, non-rotational"; then
    ok "--vm: numbers keep QEMU's throttling; no device key the unthrottled disk"
else not_ok "--vm: numbers keep QEMU's throttling ($(cat "$T/out"))"; fi
STORBENCH_NBDKIT_FILTER=$T/none "$SB" scenario check "$T/cls.ini" --vm --vm-time host >"$T/out" 2>"$T/err"
if grep -A1 "^  c:" "$T/out" | grep -q "device 1: HDD-like, 180 IOPS, 150 MB/s, rotational" &&
   [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "device-class hdd is modeled as hdd-hua723020 only with nbdkit" "$T/err"; then
    ok "--vm without the filter: device-class falls back to QEMU's throttling, one warning says why"
else not_ok "--vm without the filter: fallback ($(cat "$T/out" "$T/err"))"; fi
check "check --vm names the guest kernel" grep -q "^Guest kernel: " "$T/out"
# Virtual time (the lab): every device is served in the guest by its model, "ram" where it has
# none, without nbdkit; QEMU's throttling (numbers given) cannot be had there.
STORBENCH_NBDKIT_FILTER=$T/none check_exit "check --vm --vm-time virtual" 0 "$SB" scenario check "$T/cls.ini" \
    --vm --vm-time virtual
if grep -A1 "^  c:" "$T/out" | grep -q "device 1: modeled hdd-hua723020 (in the guest, virtual time, device-class hdd), rotational" &&
   grep -A1 "^  s:" "$T/out" | grep -q "device 1: modeled ssd-850evo (in the guest, virtual time, device-class ssd), non-rotational" &&
   grep -A1 "^  n:" "$T/out" | grep -q "device 1: modeled ram (in the guest, virtual time), non-rotational" &&
   grep -A2 "^  t:" "$T/out" | grep -q "cannot be built here (--vm): device-iops and device-bandwidth are QEMU's throttling" &&
   [ ! -s "$T/err" ]; then
    ok "--vm-time virtual: the models in the guest, no nbdkit needed, throttling refused"
else not_ok "--vm-time virtual plan ($(cat "$T/out" "$T/err"))"; fi
check_exit "--vm-time virtual with a throttled device" 2 "$SB" scenario run "$T/cls.ini" --vm --vm-time virtual \
    --suite dd --result "$T/r.json" --images "$T"
check_one_line "--vm-time virtual with a throttled device: one line" "\[t\]: device-iops and device-bandwidth"
rm -f "$T/cls.ini"

check_exit "check md example" 0 "$SB" scenario check "$EX/md-raid.ini"
check "md plan line" grep -q "ext4 on md RAID1: ext4 on md raid1 over 2 devices" "$T/out"
if [ ! -e /proc/mdstat ]; then
    check "without md here, check says so" grep -q "cannot be built here: this kernel has no md" "$T/out"
fi
check_exit "check --vm --vm-kernel with no kernel there" 0 "$SB" scenario check "$EX/md-raid.ini" --vm --vm-kernel "$T"
check "--vm-kernel: says what is missing" grep -q "Guest kernel: .*lib/modules" "$T/out"

R="--suite dd --result $T/r.json --images $T"
check_exit "--vm-accel bad" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-accel xen $R
check_one_line "--vm-accel bad: one line" "auto, kvm or tcg"
check_exit "--vm-cpus 0" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-cpus 0 $R
check_one_line "--vm-cpus 0: one line" "--vm-cpus"
check_exit "--vm-memory too small" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-memory 1M $R
check_one_line "--vm-memory: one line" "256M"
check_exit "--vm-time bad" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-time wall $R
check_one_line "--vm-time bad: one line" "virtual or host"
check_exit "--vm-time virtual under KVM" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-time virtual \
    --vm-accel kvm $R
check_one_line "--vm-time virtual under KVM: one line" "TCG only"
check_exit "--vm-time virtual with 2 vCPUs" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-time virtual \
    --vm-accel tcg --vm-cpus 2 $R
check_one_line "--vm-time virtual with 2 vCPUs: one line" "1 vCPU"
# --vm-dilate (the lab's time dilation): 1 to 16, for the lab only, and only for tests whose
# figures it can scale back (nothing is booted for any of these).
check_exit "--vm-dilate 17" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-time virtual --vm-accel tcg \
    --vm-dilate 17 $R
check_one_line "--vm-dilate 17: one line" "--vm-dilate '17': a whole number from 1 to 16"
check_exit "--vm-dilate without --vm" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm-dilate 4 $R
check_one_line "--vm-dilate without --vm: one line" "--vm-dilate is for the device lab"
check_exit "--vm-dilate under host time" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-time host \
    --vm-dilate 4 $R
check_one_line "--vm-dilate under host time: one line" "--vm-dilate stretches the lab's virtual time"
# (the tests are checked in order: the one named is the first refused, fs-mark and dbench pass)
check_exit "--vm-dilate with a test it cannot scale" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm \
    --vm-time virtual --vm-accel tcg --vm-dilate 4 -s dd -s fs-mark -s dbench:loadfile=builtin -s postmark \
    --result "$T/r.json" --images "$T"
check_one_line "--vm-dilate with postmark: one line" "--vm-dilate 4: test postmark cannot run dilated"
check_exit "--vm-dilate with fio's steady state" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm \
    --vm-time virtual --vm-accel tcg --vm-dilate 4 -s fio:steadystate=iops:5%,ss_dur=10 --result "$T/r.json" --images "$T"
check_one_line "--vm-dilate with steadystate: one line" "steadystate"
# The disks' data in guest RAM: 2 disks of 1 GiB in a 1 GiB guest are warned about, once
# (the fake QEMU fails at once: exit 1, nothing built); without --vm-memory, no warning.
STORBENCH_QEMU=/bin/false check_exit "--vm-time virtual, disks larger than the guest's memory" 1 "$SB" scenario run \
    "$EX/seed000-cache.ini" --vm --vm-time virtual --vm-accel tcg --only "BCache Writeback" --image-size 1G \
    --vm-memory 1G -s dd:count=1 --result "$T/r.json" --images "$T"
check "one warning: the disks' data is in guest RAM" test "$(grep -c "keeps the disks' data in guest RAM: 2 disks of --image-size make 2.0 GiB, more than --vm-memory 1.0 GiB" "$T/err")" -eq 1
STORBENCH_QEMU=/bin/false check_exit "--vm-time virtual, --vm-memory not given" 1 "$SB" scenario run \
    "$EX/seed000-cache.ini" --vm --vm-time virtual --vm-accel tcg --only "BCache Writeback" --image-size 1G \
    -s dd:count=1 --result "$T/r.json" --images "$T"
check "no warning when the guest's memory is sized to its disks" test "$(grep -c "guest RAM" "$T/err")" -eq 0
check_exit "--vm-kvm-timeout bad" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-kvm-timeout x $R
check_one_line "--vm-kvm-timeout: one line" "seconds"
check_exit "--vm with --devices" 2 "$SB" scenario run "$EX/seed000-cache.ini" --vm --devices /dev/null \
    --destroy-data-on /dev/null $R
check_one_line "--vm with --devices: one line" "emulated disks"
check_exit "--vm with a missing kernel tree" 1 "$SB" scenario run "$EX/seed000-cache.ini" --vm --vm-kernel "$T/none" \
    --only SSD --vm-accel tcg -o count=1 -n 1 --exact-runs $R
if command -v qemu-system-x86_64 >/dev/null && [ -x /bin/busybox ]; then
    check_one_line "--vm with a missing kernel tree: one line" "--vm-kernel"
else
    check_one_line "--vm without QEMU or busybox-static: one line" "--vm"
fi
# (storbench: the wrapper tests/cli/lib.sh puts there)
check "refused --vm runs left nothing in --images" test -z "$(ls -A "$T" | grep -v '^\(out\|err\|xdg\|storbench\)$')"

printf '[a]\nfilesystem = ext4\ndevices = 2\nmd = raid5\n' >"$T/md.ini"
check_exit "md raid5 on 2 devices" 2 "$SB" scenario check "$T/md.ini"
check_one_line "md raid5 on 2 devices: one line with the line" "md.ini:1: \[a\]: md raid5 needs at least 3"
printf '[a]\nfilesystem = ext4\ncache = writeback\ndevice-class = ssd,hdd,ssd\n' >"$T/dc.ini"
check_exit "device-class list too long" 2 "$SB" scenario check "$T/dc.ini"
check_one_line "device-class list too long: one line with the line" "dc.ini:4:"

check_exit "vm-guest outside a guest" 1 "$SB" scenario vm-guest "$T"
check_one_line "vm-guest outside a guest: one line" "not written by 'scenario run --vm'"
check_exit "vm-guest without DIR" 2 "$SB" scenario vm-guest
finish
