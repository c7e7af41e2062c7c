# storbench scenario run --vm on a host whose QEMU aborts under KVM (issue 24 item 9,
# issue 26): QEMU 7.2 on some hosts prints "failed to set MSR 0x10a" and dies on an
# assertion in kvm.c. `--vm-accel auto` must take any failure of the KVM guest for
# KVM's, fall back to TCG, say so on stderr and record which accelerator ran.
# Fast (no guest boots): STORBENCH_QEMU is a fake QEMU that, under `-accel kvm`,
# prints QEMU's two lines and kills itself with SIGABRT, and under `-accel tcg` plays
# a guest that ran: the marker /init prints, then a result file and a status of 0 in
# the exchange directory (the result made by this storbench on the host: `run dd`);
# STORBENCH_KVM_DEVICE=/dev/null makes auto try KVM on a host without /dev/kvm.
# make vm-check does the same with the real QEMU under TCG (tests/vm/test_vm_boot.sh).
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"
. "$SRC/tests/vm/lib_vm.sh"

FAKE=$T/fake-qemu
LOG=$T/qemu.log
cat >"$FAKE" <<EOF
#!/bin/bash
if [ "\$1" = --version ]; then echo "QEMU emulator version 7.2.0 (fake for tests)"; exit 0; fi
case " \$* " in
*" -accel kvm "*)
    echo kvm >>"$LOG"
    echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x2000000e" >&2
    echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:2954: kvm_buf_set_msrs: Assertion \\\`ret == cpu->kvm_msr_buf->nmsrs' failed." >&2
    kill -ABRT \$\$ ;;
esac
echo tcg >>"$LOG"
echo "\$*" >"$T/argv.tcg"
# \$HANG holds how many more TCG guests hang silent before /init (a guest kernel seen to spin).
if [ -s "$T/hang" ] && [ "\$(cat "$T/hang")" -gt 0 ]; then
    echo \$((\$(cat "$T/hang") - 1)) >"$T/hang"
    exec sleep 600
fi
xchg=
for a in "\$@"; do
    case "\$a" in *mount_tag=xchg*) xchg=\${a#local,path=}; xchg=\${xchg%%,mount_tag=xchg*}; xchg=\${xchg//,,/,} ;; esac
done
[ -d "\$xchg" ] || { echo "fake qemu: no exchange directory" >&2; exit 1; }
id=\$(tr '\0' '\n' <"\$xchg/args" | sed -n 4p)
echo "storbench-vm: up"
mkdir -p "$T/guest-target"
"$SB_BIN" run dd:count=1 --runs 1 --no-drop-caches --target "$T/guest-target" \\
    --result "\$xchg/result.json" --identifier "\$id" >/dev/null 2>&1
echo \$? >"\$xchg/status"
exit 0
EOF
chmod +x "$FAKE"
export STORBENCH_QEMU=$FAKE STORBENCH_KVM_DEVICE=/dev/null
# The guest options the fake ignores; those that matter to the host side.
VMARGS=(--vm --only "BCache Writeback" --suite dd -o count=1 -n 1 --exact-runs --vm-cpus 1 --images "$IMG" --image-size 64M)

check_exit "auto, QEMU aborts under KVM: falls back to TCG, exit 0" 0 "$SB" scenario run "$T/bc.ini" \
    "${VMARGS[@]}" --result "$T/r.json"
check "KVM tried first, then TCG, each once" test "$(tr '\n' ' ' <"$LOG")" = "kvm tcg "
check "stderr: one line naming KVM's failure and TCG" \
    test "$(grep -c 'KVM failed (QEMU killed by SIGABRT.*failed to set MSR 0x10a.*using TCG' "$T/err")" -eq 1
check "stdout: the second boot under TCG" grep -q "^Booting a guest: .*TCG (emulated CPU)" "$T/out"
check "saved" grep -q "Saved 'BCache Writeback' in $T/r.json" "$T/out"
acc=$(storage "BCache Writeback" "VM Accelerator")
if [[ "$acc" == "TCG (emulated CPU); auto: KVM failed here (QEMU killed by SIGABRT"*"MSR 0x10a"* ]]; then
    ok "recorded: VM Accelerator: $acc"
else not_ok "recorded: VM Accelerator ($acc)"; fi
vmf=$(storage "BCache Writeback" VM)
if [[ "$vmf" == "QEMU 7.2.0 (fake for tests), TCG (emulated CPU), 1 vCPU, "* ]]; then ok "recorded: VM: $vmf"
else not_ok "recorded: VM ($vmf)"; fi
# KVM failed under auto: the TCG guest that ran instead is in virtual time (the default
# wherever TCG runs), its disks served in the guest.
check "the text page names the accelerator and virtual time" \
    sh -c "'$SB' show '$T/r.json' | grep -q 'System Layer: QEMU/TCG (emulated CPU, virtual time)'"
check "after KVM failed: virtual time, disks in the guest" test -n "$(echo "$vmf" | grep 'virtual time (icount shift=0')"
check "after KVM failed: the TCG guest got -icount and no disk from QEMU" \
    sh -c "grep -q -- '-icount shift=0,sleep=off' '$T/argv.tcg' && ! grep -q -- '-drive' '$T/argv.tcg'"
check "the HTML page says why" sh -c "'$SB' show '$T/r.json' --format html | grep -q 'VM Accelerator.*KVM failed here'"
nothing_left "after the KVM failure"

# Explicit --vm-accel kvm: no fallback, the run fails with QEMU's end and its lines.
: >"$LOG"
check_exit "--vm-accel kvm, QEMU aborts: exit 1" 1 "$SB" scenario run "$T/bc.ini" "${VMARGS[@]}" --vm-accel kvm \
    --result "$T/r2.json"
check "--vm-accel kvm: KVM tried once, no TCG" test "$(tr '\n' ' ' <"$LOG")" = "kvm "
check "--vm-accel kvm: the error names QEMU's abort" grep -q "QEMU killed by SIGABRT.*failed to set MSR 0x10a" "$T/err"
check "--vm-accel kvm: nothing saved" test ! -e "$T/r2.json"
nothing_left "after --vm-accel kvm"

# No KVM device: auto says so once and runs TCG straight away.
: >"$LOG"
STORBENCH_KVM_DEVICE=$T/no-such-kvm check_exit "auto without a KVM device: exit 0" 0 "$SB" scenario run "$T/bc.ini" \
    "${VMARGS[@]}" --result "$T/r3.json"
check "no KVM device: TCG only" test "$(tr '\n' ' ' <"$LOG")" = "tcg "
check "no KVM device: one line saying so" test "$(grep -c "no KVM here ($T/no-such-kvm: No such file" "$T/err")" -eq 1
acc=$("$SB" show "$T/r3.json" --format json | jq -r '.systems[0].storage."VM Accelerator"')
if [[ "$acc" == "TCG (emulated CPU); auto: $T/no-such-kvm: No such file or directory" ]]; then ok "no KVM device: recorded"
else not_ok "no KVM device: recorded ($acc)"; fi
# A TCG guest whose kernel hangs before /init: killed after --vm-boot-timeout, booted again
# from fresh images once; twice fails the configuration, nothing saved, nothing left.
: >"$LOG"
echo 1 >"$T/hang"
check_exit "a TCG guest hangs once: booted again, exit 0" 0 "$SB" scenario run "$T/bc.ini" "${VMARGS[@]}" \
    --vm-accel tcg --vm-boot-timeout 2 --result "$T/r4.json"
check "hang once: TCG booted twice" test "$(tr '\n' ' ' <"$LOG")" = "tcg tcg "
check "hang once: one line on stderr naming the hang" \
    test "$(grep -c "\[BCache Writeback\] the guest's init said nothing within 2 s.*booting it again" "$T/err")" -eq 1
check "hang once: saved" grep -q "Saved 'BCache Writeback' in $T/r4.json" "$T/out"
nothing_left "after a guest that hung once"
: >"$LOG"
echo 2 >"$T/hang"
check_exit "a TCG guest hangs twice: exit 1" 1 "$SB" scenario run "$T/bc.ini" "${VMARGS[@]}" \
    --vm-accel tcg --vm-boot-timeout 2 --result "$T/r5.json"
check "hang twice: TCG booted twice, not more" test "$(tr '\n' ' ' <"$LOG")" = "tcg tcg "
check "hang twice: the error says so" grep -q "said nothing within 2 s, twice" "$T/err"
check "hang twice: nothing saved" test ! -e "$T/r5.json"
nothing_left "after a guest that hung twice"
check_exit "--vm-boot-timeout bad" 2 "$SB" scenario run "$T/bc.ini" --vm --vm-boot-timeout 0 --result "$T/r6.json"
check_one_line "--vm-boot-timeout: one line" "seconds"
finish
