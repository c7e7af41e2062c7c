# make vm-check: scenario run --vm with real QEMU guests (a few minutes under
# TCG, so not part of make check). A bcache writeback configuration (emulated
# SSD caching an emulated HDD) with dd at a tiny scale under --vm-accel auto
# (KVM probed with a timeout, TCG where it hangs): its figures land in the
# host's result file, the mode read back from sysfs is writeback, the VM, its
# kernel and the emulated devices are recorded; an md RAID1 configuration;
# Ctrl-C while a guest runs: exit 130, the guest killed, nothing left. After
# each: no QEMU of ours running, nothing mounted, the images directory empty.
# Skipped (one "ok ... # skip" line) where QEMU or busybox-static is missing.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ] || ! command -v make-bcache >/dev/null ||
   ! command -v mdadm >/dev/null || ! command -v jq >/dev/null; then
    ok "scenario run --vm # skip: needs qemu-system-x86, busybox-static, bcache-tools, mdadm, jq (scripts/bootstrap)"
    finish
fi
IMG=$T/img
mkdir -p "$IMG"
DD="--suite dd -o count=4 -o bs=1M -n 1 --exact-runs --no-drop-caches --vm-cpus 1 --images $IMG --image-size 256M"

nothing_left() {
    local what=$1
    if pgrep -f "qemu-system-x86_64.*$IMG" >/dev/null; then not_ok "$what: no guest running"; else ok "$what: no guest running"; fi
    if findmnt -rn -o TARGET | grep -q "^$T/"; then not_ok "$what: nothing mounted"; else ok "$what: nothing mounted"; fi
    if [ -z "$(ls -A "$IMG")" ]; then ok "$what: images dir empty"; else not_ok "$what: images dir empty ($(ls -A "$IMG"))"; fi
}
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

start=$(date +%s)
check_exit "bcache writeback in a guest (--vm-accel auto)" 0 "$SB" scenario run "$T/bc.ini" --vm --only "BCache Writeback" \
    --vm-kvm-timeout 15 $DD --result "$T/r.json"
echo "# bcache guest: $(( $(date +%s) - start )) s; $(grep -E '^(Booting|The KVM)' "$T/out" | tr '\n' ' ')"
check "saved in the host's result file" grep -q "Saved 'BCache Writeback' in $T/r.json" "$T/out"
check "the guest's console was shown" grep -q "guest| .*Direct Write:" "$T/out"
mode=$(storage "BCache Writeback" "Cache Mode (sysfs)")
if [ "$mode" = writeback ]; then ok "bcache mode read back from sysfs: writeback"; else not_ok "bcache mode read back ($mode)"; fi
vmf=$(storage "BCache Writeback" VM)
if [[ "$vmf" == QEMU*", KVM, "* || "$vmf" == QEMU*", TCG (emulated CPU), "* ]]; then ok "VM recorded: $vmf"; else not_ok "VM recorded ($vmf)"; fi
check "guest kernel recorded" test -n "$(storage "BCache Writeback" "VM Kernel")"
dev=$(storage "BCache Writeback" "Emulated Devices")
if [[ "$dev" == "1: "*"SSD-like"*"; 2: "*"HDD-like, 180 IOPS, 150 MB/s, rotational"* ]]; then ok "emulated devices recorded"
else not_ok "emulated devices recorded ($dev)"; fi
if [[ "$vmf" == *TCG* ]]; then
    cpu=$("$SB" show "$T/r.json" --format json | jq -r '.systems[0].hardware.Processor')
    if [[ "$cpu" == *"(emulated CPU)"* ]]; then ok "TCG: the processor is marked emulated"; else not_ok "TCG processor ($cpu)"; fi
fi
check "figures under the identifier" test "$("$SB" show "$T/r.json" --format json | jq '[.results[].entries[] | select(.identifier == "BCache Writeback")] | length')" -ge 3
nothing_left "after the bcache guest"

start=$(date +%s)
check_exit "md RAID1 in a guest (TCG)" 0 "$SB" scenario run "$T/bc.ini" --vm --vm-accel tcg --only "ext4 on md RAID1" $DD \
    --result "$T/r.json"
echo "# md guest: $(( $(date +%s) - start )) s"
md=$(storage "ext4 on md RAID1" "MD Array")
if [[ "$md" == "md raid1, 2 devices, "* ]]; then ok "md array read back: $md"; else not_ok "md array read back ($md)"; fi
nothing_left "after the md guest"

# Ctrl-C while the guest runs.
"$SB" scenario run "$T/bc.ini" --vm --vm-accel tcg --only "BCache Writeback" $DD --result "$T/r2.json" >"$T/int.out" 2>&1 &
pid=$!
for _ in $(seq 1 240); do grep -q "^Booting a guest" "$T/int.out" && break; sleep 0.5; done
sleep 5
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ]; then ok "Ctrl-C in a guest: exit 130"; else not_ok "Ctrl-C in a guest: exit $rc ($(tail -3 "$T/int.out"))"; fi
check "Ctrl-C: nothing saved" test ! -e "$T/r2.json"
nothing_left "after Ctrl-C"
finish
