# The modeled disks of `scenario run --vm` (issue 29): nbdkit with storbench's device
# model filter (build/storbench-nbdkit-model.so, src/nbdkit/model_filter.c) in front of
# the `file` plugin, the guest's disk attached over NBD.
#  1. the filter loads in nbdkit and refuses a bad model in one line;
#  2. through NBD (qemu-img bench over nbdkit's socket, the null plugin under the filter),
#     a modeled HDD writes 4K requests scattered over the disk (2000, 256 MiB apart, then
#     the flush at close) at least twice as slowly as 4K sequential ones and as the same scattered writes on a
#     ram model (the host's share): the seeks and rotations are the model's (about 3 s of
#     modeled arm time against 0.1 s); the best of three controls is compared, so a
#     loaded moment on this host can only narrow the gap, never invent it;
#  3. scenario run --vm with a fake QEMU (no guest boots) that reads and writes its disk
#     through the socket the -drive names: the guest's disk is the nbdkit, the page
#     records the model, and afterwards no nbdkit runs and the images dir is empty;
#  4. a run SIGKILLed while its guest runs: its nbdkit dies with it, its journal names
#     it, the next `scenario cleanup` removes the journal and the next run the images;
#  5. `scenario cleanup` stops an nbdkit a dead run's journal names (one that outlived
#     its run) and leaves alone a process whose pid is journaled with another socket.
# Skipped (one "ok ... # skip" line) where nbdkit, the filter or qemu-img is missing.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

SO=
for d in "$(dirname "$SB_BIN")/build" "$(dirname "$SB_BIN")"; do
    [ -f "$d/storbench-nbdkit-model.so" ] && SO=$d/storbench-nbdkit-model.so && break
done
if ! command -v nbdkit >/dev/null || [ -z "$SO" ] || ! command -v qemu-img >/dev/null ||
   ! command -v qemu-io >/dev/null || ! command -v jq >/dev/null; then
    ok "nbdkit device models # skip: needs nbdkit, nbdkit-plugin-dev (the filter), qemu-utils, jq (scripts/bootstrap)"
    finish
fi
export STORBENCH_STATE_DIR=$T/state STORBENCH_NBDKIT_FILTER=$SO

# 1. The filter loads; a bad model is refused before nbdkit serves.
check "the filter loads in nbdkit (hdd-hua723020 over the null plugin)" \
    nbdkit -U - --filter="$SO" null 1G model=hdd-hua723020 --run true
nbdkit -U - --filter="$SO" null 1G model=floppy --run true >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "model=floppy.*unknown preset" "$T/err"; then
    ok "a bad model: refused in one line ($(cat "$T/err"))"
else not_ok "a bad model refused (exit $rc: $(cat "$T/err"))"; fi

# 2. Scattered against sequential 4K writes on the modeled HDD, through NBD (over the null
#    plugin: no host storage under the model). The host's own share of the scattered run
#    is measured too, on a ram model (no modeled time): the HDD model must add at least as
#    much again. The best of three controls is taken: a loaded moment only narrows the gap.
bench() { # MODEL STEP: seconds for 2000 4K writes STEP bytes apart at depth 16, and the flush at close
    local s e
    s=$(date +%s.%N)
    nbdkit -U - --filter="$SO" null 500G model="$1" \
        --run "qemu-img bench -f raw -w -c 2000 -d 16 -s 4096 -S $2 \"\$uri\" >/dev/null" || return 1
    e=$(date +%s.%N)
    echo "$s $e" | awk '{printf "%.3f", $2 - $1}'
}
best() { # MODEL STEP: the best of three
    local b= t
    for _ in 1 2 3; do
        t=$(bench "$1" "$2") || return 1
        b=$(echo "$t ${b:-$t}" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    echo "$b"
}
scattered=$(bench hdd-hua723020 268435456)
seq=$(best hdd-hua723020 4096)
host=$(best ram 268435456)
if [ -n "$scattered" ] && [ -n "$seq" ] && [ -n "$host" ] &&
   awk -v a="$scattered" -v b="$seq" -v h="$host" 'BEGIN { exit !(a >= 2 * b && a >= 2 * h) }'; then
    ok "modeled HDD: scattered 4K writes take ${scattered} s, sequential ${seq} s, the host's share ${host} s (x2 both)"
else not_ok "modeled HDD: scattered 4K writes ${scattered:-failed} s, sequential ${seq:-failed} s, the host's share ${host:-failed} s (wanted x2 both)"; fi

# 3. --vm with a fake QEMU: the disk it gets is nbdkit's socket.
IMG=$T/img
mkdir -p "$IMG" "$STORBENCH_STATE_DIR"
LOG=$T/qemu.log
FAKE=$T/fake-qemu
cat >"$FAKE" <<EOF
#!/bin/bash
if [ "\$1" = --version ]; then echo "QEMU emulator version 7.2.0 (fake for tests)"; exit 0; fi
xchg= sock=
for a in "\$@"; do
    case "\$a" in
    *mount_tag=xchg*) xchg=\${a#local,path=}; xchg=\${xchg%%,mount_tag=xchg*}; xchg=\${xchg//,,/,} ;;
    *file.driver=nbd*) sock=\${a#*file.server.path=}; sock=\${sock%%,cache=*}; sock=\${sock//,,/,} ;;
    esac
done
[ -S "\$sock" ] || { echo "fake qemu: no nbd socket in the -drive (\$*)" >&2; exit 1; }
echo "storbench-vm: up"
# The guest's I/O: a pattern written through the model and read back.
if qemu-io -f raw -c "write -P 0x5a 0 64k" -c "read -P 0x5a 0 64k" -c flush "nbd+unix:///?socket=\$sock" \\
    >>"$LOG" 2>&1; then echo "disk io ok" >>"$LOG"; fi
# Hanging: exec, so that the sleep is the process storbench started (and dies with it).
[ -n "\${FAKE_HANG:-}" ] && { echo hanging >>"$LOG"; exec sleep 120; }
id=\$(tr '\0' '\n' <"\$xchg/args" | sed -n 4p)
mkdir -p "$T/guest-target"
"$SB_BIN" run dd:count=1 --runs 1 --no-drop-caches --target "$T/guest-target" \\
    --result "\$xchg/result.json" --identifier "\$id" >/dev/null 2>&1
echo \$? >"\$xchg/status"
exit 0
EOF
chmod +x "$FAKE"
export STORBENCH_QEMU=$FAKE STORBENCH_KVM_DEVICE=/dev/null
cat >"$T/m.ini" <<'INI'
[scenario]
title = Modeled disks
[Modeled HDD]
filesystem = ext4
device-class = hdd
device-model = hdd-hua723020
INI
VMARGS=(--vm --vm-accel tcg --vm-time host --suite dd -o count=1 -n 1 --exact-runs --vm-cpus 1 --images "$IMG" --image-size 64M)
our_nbdkit() { pgrep -f "nbdkit.*$IMG" >/dev/null; }
check_exit "--vm on a modeled HDD (fake QEMU): exit 0" 0 "$SB" scenario run "$T/m.ini" "${VMARGS[@]}" --result "$T/r.json"
check "the guest's disk was nbdkit's socket: a pattern written and read back through the model" \
    grep -q "disk io ok" "$LOG"
dev=$("$SB" show "$T/r.json" --format json | jq -r '.systems[0].storage."Emulated Devices"')
if [[ "$dev" == "1: "*"modeled hdd-hua723020 (nbdkit), rotational"* ]]; then ok "recorded: Emulated Devices: $dev"
else not_ok "recorded: Emulated Devices ($dev)"; fi
if our_nbdkit; then not_ok "after the run: no nbdkit of ours running"; else ok "after the run: no nbdkit of ours running"; fi
if [ -z "$(ls -A "$IMG")" ]; then ok "after the run: images dir empty"; else not_ok "images dir empty ($(ls -A "$IMG"))"; fi
if [ -z "$(ls -A "$STORBENCH_STATE_DIR")" ]; then ok "after the run: no journal left"
else not_ok "after the run: no journal left ($(ls -A "$STORBENCH_STATE_DIR"))"; fi

# 4. SIGKILL while the guest runs.
: >"$LOG"
FAKE_HANG=1 "$SB" scenario run "$T/m.ini" "${VMARGS[@]}" --result "$T/r2.json" >"$T/kill.out" 2>&1 &
pid=$!
for _ in $(seq 1 150); do grep -q hanging "$LOG" && break; sleep 0.2; done
if our_nbdkit; then ok "while the guest runs: its nbdkit serves"; else not_ok "while the guest runs: its nbdkit serves"; fi
kill -KILL "$pid"
wait "$pid" 2>/dev/null
for _ in $(seq 1 50); do our_nbdkit || break; sleep 0.2; done
if our_nbdkit; then not_ok "SIGKILLed run: its nbdkit died with it"; else ok "SIGKILLed run: its nbdkit died with it"; fi
check "SIGKILLed run: its journal names the nbdkit" grep -q "^nbdkit	[0-9]*	$IMG/" "$STORBENCH_STATE_DIR"/scenario-"$pid".state
check_exit "scenario cleanup after the killed run: exit 0" 0 "$SB_BIN" scenario cleanup
check "scenario cleanup: the journal is gone" test ! -e "$STORBENCH_STATE_DIR/scenario-$pid.state"
check_exit "the next run: exit 0" 0 "$SB" scenario run "$T/m.ini" "${VMARGS[@]}" --result "$T/r3.json"
if [ -z "$(ls -A "$IMG")" ]; then ok "the next run: the killed run's images removed"
else not_ok "the next run: the killed run's images removed ($(ls -A "$IMG"))"; fi

# 5. An nbdkit that outlived its run, journaled by a dead pid; and a pid journaled with
#    another socket, which is not ours to stop.
mkdir -m 0700 "$T/left" "$T/other"
nbdkit -f -U "$T/left/nbd.sock" null 1M & left=$!
nbdkit -f -U "$T/other/nbd.sock" null 1M & other=$!
for _ in $(seq 1 50); do [ -S "$T/left/nbd.sock" ] && [ -S "$T/other/nbd.sock" ] && break; sleep 0.1; done
dead=999999
while kill -0 "$dead" 2>/dev/null; do dead=$((dead - 1)); done
printf 'storbench-scenario\t1\t%s\nnbdkit\t%s\t%s\nnbdkit\t%s\t%s\n' "$dead" "$left" "$T/left/nbd.sock" \
    "$other" "$T/not-its-socket" >"$STORBENCH_STATE_DIR/scenario-$dead.state"
check_exit "scenario cleanup with a journaled nbdkit still running: exit 0" 0 "$SB_BIN" scenario cleanup
for _ in $(seq 1 30); do kill -0 "$left" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$left" 2>/dev/null; then not_ok "cleanup stopped the journaled nbdkit"; kill "$left"
else ok "cleanup stopped the journaled nbdkit"; fi
wait "$left" 2>/dev/null
check "cleanup removed its socket" test ! -e "$T/left/nbd.sock"
if kill -0 "$other" 2>/dev/null; then ok "cleanup left alone a pid journaled with another socket"
else not_ok "cleanup left alone a pid journaled with another socket"; fi
kill "$other" 2>/dev/null; wait "$other" 2>/dev/null
finish
