# storbench scenario run --vm with one real guest (about 35 s under TCG, in virtual
# time where TCG is the accelerator: the default, the disks served in the guest): a
# bcache writeback configuration, an emulated SSD caching an emulated HDD,
# with dd at a tiny scale; the figures land in the host's result file, the
# mode read back from sysfs is writeback, the VM, its kernel and the emulated
# devices are recorded, and no guest, mount or image is left. The first run
# downloads Debian's kernel package into ~/.cache/storbench/vm. make vm-check
# adds the KVM probe, md and Ctrl-C (tests/vm/test_vm_boot.sh).
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"
case "$SB" in *asan*) ok "scenario run --vm # skip: not under ASan (the guest runs this binary; make vm-check)"; finish ;; esac
. "$SRC/tests/vm/lib_vm.sh"

start=$(date +%s)
check_exit "bcache writeback in a guest (TCG)" 0 "$SB" scenario run "$T/bc.ini" --vm --vm-accel tcg --only "BCache Writeback" \
    $DD -o count=1 --result "$T/r.json"
echo "# bcache guest: $(( $(date +%s) - start )) s"
check_bcache_guest
finish
