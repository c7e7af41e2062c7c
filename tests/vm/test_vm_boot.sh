# make vm-check: scenario run --vm with real QEMU guests (about 100 s niced
# under TCG, so apart from make check, whose test_scenario_vm_boot.sh boots
# one guest). A bcache writeback configuration (emulated SSD caching an
# emulated HDD) with dd at a tiny scale under --vm-accel auto
# (KVM probed, TCG where it fails), then again where QEMU aborts under KVM
# (a wrapper through STORBENCH_QEMU): its figures land in the
# host's result file, the mode read back from sysfs is writeback, the VM, its
# kernel and the emulated devices are recorded; an md RAID1 configuration;
# Ctrl-C while a guest runs: exit 130, the guest killed, nothing left (the TCG guests
# run in virtual time, their disks served in the guest: the default under TCG); ext4 on a
# modeled HDD (device-model, served by nbdkit: --vm-time host). After
# each: no QEMU of ours running, nothing mounted, the images directory empty.
# Skipped (one "ok ... # skip" line) where QEMU or busybox-static is missing.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"
. "$SRC/tests/vm/lib_vm.sh"

start=$(date +%s)
check_exit "bcache writeback in a guest (--vm-accel auto)" 0 "$SB" scenario run "$T/bc.ini" --vm --only "BCache Writeback" \
    --vm-kvm-timeout 15 $DD --result "$T/r.json"
echo "# bcache guest: $(( $(date +%s) - start )) s; $(grep -h -E '^Booting|KVM' "$T/out" "$T/err" | tr '\n' ' ')"
check_bcache_guest

# A host whose QEMU aborts under KVM (QEMU 7.2's "failed to set MSR 0x10a", an assertion
# in kvm.c): a wrapper that dies so under -accel kvm and is the real QEMU otherwise;
# STORBENCH_KVM_DEVICE=/dev/null makes auto try KVM even where /dev/kvm is missing.
QEMU_REAL=$(command -v qemu-system-x86_64)
printf '%s\n' '#!/bin/bash' \
    'case " $* " in *" -accel kvm "*)' \
    '    echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x2000000e" >&2' \
    '    echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:2954: kvm_buf_set_msrs: Assertion failed." >&2' \
    '    kill -ABRT $$ ;;' \
    'esac' \
    "exec '$QEMU_REAL' \"\$@\"" >"$T/abort-qemu"
chmod +x "$T/abort-qemu"
rm -f "$T/r.json"
start=$(date +%s)
STORBENCH_QEMU=$T/abort-qemu STORBENCH_KVM_DEVICE=/dev/null check_exit "auto where QEMU aborts under KVM: TCG, exit 0" 0 \
    "$SB" scenario run "$T/bc.ini" --vm --only "BCache Writeback" $DD --result "$T/r.json"
echo "# bcache guest after KVM's abort: $(( $(date +%s) - start )) s"
check "KVM's abort said on stderr, once" test "$(grep -c 'KVM failed (QEMU killed by SIGABRT.*MSR 0x10a.*using TCG' "$T/err")" -eq 1
acc=$(storage "BCache Writeback" "VM Accelerator")
if [[ "$acc" == "TCG (emulated CPU); auto: KVM failed here (QEMU killed by SIGABRT"* ]]; then ok "recorded: $acc"
else not_ok "VM Accelerator recorded ($acc)"; fi
check_bcache_guest

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

# A modeled disk (device-model): the guest's disk is an nbdkit with the model filter.
if command -v nbdkit >/dev/null && [ -f "$(dirname "$SB_BIN")/storbench-nbdkit-model.so" ]; then
    printf '%s\n' '[scenario]' 'title = VM check' '[Modeled HDD]' 'filesystem = ext4' 'device-class = hdd' \
        'device-model = hdd-hua723020' >"$T/m.ini"
    start=$(date +%s)
    check_exit "ext4 on a modeled HDD in a guest (TCG)" 0 "$SB" scenario run "$T/m.ini" --vm --vm-accel tcg --vm-time host $DD \
        --result "$T/r.json"
    echo "# modeled guest: $(( $(date +%s) - start )) s"
    dev=$(storage "Modeled HDD" "Emulated Devices")
    if [[ "$dev" == "1: "*"modeled hdd-hua723020 (nbdkit), rotational"* ]]; then ok "modeled device recorded: $dev"
    else not_ok "modeled device recorded ($dev)"; fi
    if pgrep -f "nbdkit.*$IMG" >/dev/null; then not_ok "after the modeled guest: no nbdkit running"
    else ok "after the modeled guest: no nbdkit running"; fi
    nothing_left "after the modeled guest"
else
    ok "modeled disk in a guest # skip: needs nbdkit and the filter (nbdkit-plugin-dev)"
fi
finish
