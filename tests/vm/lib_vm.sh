# Helpers of the tests that boot `scenario run --vm` guests (tests/cli/test_scenario_vm_boot.sh
# in make check, tests/vm/test_vm_boot.sh in make vm-check). Sourced after tests/cli/lib.sh.
# Leaves "ok ... # skip" and finishes where QEMU and the guest's tools are missing.
if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ] || ! command -v make-bcache >/dev/null ||
   ! command -v mdadm >/dev/null || ! command -v jq >/dev/null; then
    ok "scenario run --vm # skip: needs qemu-system-x86, busybox-static, bcache-tools, mdadm, jq (scripts/bootstrap)"
    finish
fi
IMG=$T/img
mkdir -p "$IMG"
DD="--suite dd -o count=4 -o bs=1M -n 1 --exact-runs --no-drop-caches --vm-cpus 1 --images $IMG --image-size 256M"

# No guest of ours running, nothing mounted under $T, the images directory empty.
nothing_left() {
    local what=$1
    if pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null; then not_ok "$what: no guest running"; else ok "$what: no guest running"; fi
    if findmnt -rn -o TARGET | grep -q "^$T/"; then not_ok "$what: nothing mounted"; else ok "$what: nothing mounted"; fi
    if [ -z "$(ls -A "$IMG")" ]; then ok "$what: images dir empty"; else not_ok "$what: images dir empty ($(ls -A "$IMG"))"; fi
}
# storage ID KEY: a storage field of identifier ID in $T/r.json.
storage() { "$SB" show "$T/r.json" --format json | jq -r --arg id "$1" --arg k "$2" \
    '.systems[] | select(.identifier == $id) | .storage[$k] // empty'; }

cat >"$T/bc.ini" <<'INI'
[scenario]
title = VM check
device-class = ssd,hdd
[BCache Writeback]
filesystem = ext4
cache = writeback
[ext4 on md RAID1]
filesystem = ext4
devices = 2
md = raid1
INI

# check_bcache_guest: what a bcache writeback guest must have left in $T/r.json.
check_bcache_guest() {
    check "saved in the host's result file" grep -q "Saved 'BCache Writeback' in $T/r.json" "$T/out"
    check "the guest's console was shown" grep -q "guest| .*Direct Write:" "$T/out"
    local mode vmf dev cpu
    mode=$(storage "BCache Writeback" "Cache Mode (sysfs)")
    if [ "$mode" = writeback ]; then ok "bcache mode read back from sysfs: writeback"; else not_ok "bcache mode read back ($mode)"; fi
    vmf=$(storage "BCache Writeback" VM)
    if [[ "$vmf" == QEMU*", KVM, "* || "$vmf" == QEMU*", TCG (emulated CPU), "* ]]; then ok "VM recorded: $vmf"; else not_ok "VM recorded ($vmf)"; fi
    check "guest kernel recorded" test -n "$(storage "BCache Writeback" "VM Kernel")"
    dev=$(storage "BCache Writeback" "Emulated Devices")
    # device-class names the seeds' presets: in the guest itself under virtual time (the default
    # under TCG), else where nbdkit and the filter are; elsewhere QEMU throttles
    if [[ "$vmf" == *"virtual time (icount shift=0, sleep=off"* ]]; then
        if [[ "$dev" == "1: "*"in guest RAM, modeled ssd-850evo (in the guest, virtual time, device-class ssd), non-rotational; 2: "*"modeled hdd-hua723020 (in the guest, virtual time, device-class hdd), rotational" ]]
        then ok "emulated devices recorded: the classes' presets, in the guest"; else not_ok "emulated devices recorded ($dev)"; fi
        check "virtual time: storbench ran from the guest's RAM" grep -q "guest| storbench-vm: in guest RAM (" "$T/out"
        check "virtual time: nothing was read from the host while storbench ran" \
            grep -q "guest| storbench-vm: 9p requests to the host while storbench ran: 0$" "$T/out"
        check "virtual time: the guest's disks' servers never woke for nothing" grep -q "guest| lab: nbd1 hdd-hua723020: [0-9]* requests, 0 idle wake-ups" "$T/out"
        check "virtual time: System Layer says so" test "$("$SB" show "$T/r.json" --format json |
            jq -r '.systems[0].software."System Layer"')" = "QEMU/TCG (emulated CPU, virtual time)"
    elif command -v nbdkit >/dev/null && [ -f "$(dirname "$SB_BIN")/storbench-nbdkit-model.so" ]; then
        if [[ "$dev" == "1: "*"modeled ssd-850evo (nbdkit, device-class ssd)"*"; 2: "*"modeled hdd-hua723020 (nbdkit, device-class hdd), rotational"* ]]
        then ok "emulated devices recorded: the classes' presets"; else not_ok "emulated devices recorded ($dev)"; fi
    elif [[ "$dev" == "1: "*"SSD-like"*"; 2: "*"HDD-like, 180 IOPS, 150 MB/s, rotational"* ]]; then ok "emulated devices recorded"
    else not_ok "emulated devices recorded ($dev)"; fi
    if [[ "$vmf" == *TCG* ]]; then
        cpu=$("$SB" show "$T/r.json" --format json | jq -r '.systems[0].hardware.Processor')
        if [[ "$cpu" == *"(emulated CPU)"* ]]; then ok "TCG: the processor is marked emulated"; else not_ok "TCG processor ($cpu)"; fi
    fi
    check "figures under the identifier" test "$("$SB" show "$T/r.json" --format json |
        jq '[.results[].entries[] | select(.identifier == "BCache Writeback")] | length')" -ge 3
    nothing_left "after the bcache guest"
}
