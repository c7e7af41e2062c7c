# host-bound-check under `scenario run --vm` (issue 29): each modeled configuration is
# built again in a guest of its own, its ram twin (every device an nbdkit serving the
# `ram` model, the same kernel, image size and guest options), and its figures mark the
# modeled ones exactly as natively (entries[].host_bound, "(host-bound)" on the text
# page). No guest boots: STORBENCH_QEMU is a fake QEMU that finds each disk's nbdkit
# through the socket its -drive names, logs the model that nbdkit serves (from its
# command line in /proc) and the disk's size (qemu-img info over NBD), and plays a guest
# that ran: a result file made by this storbench on the host (`run dd`) whose figures are
# set from $T/figs ("IDENTIFIER|MODELS=FIGURE"), so which figures are host-bound is fixed
# by the test, not by this host's speed.
#  1. a modeled HDD whose ram twin does 110 against its 100 MB/s: host-bound, the twin's
#     figure recorded; a modeled two-device configuration whose twin does 300: not;
#     a configuration without a device-model (no device key: QEMU's plain disk) no twin;
#  2. the twins' disks were ram models of the same size under the same kernel; the twins
#     are not saved (one system per configuration, each recording its own models);
#  3. without host-bound-check no twin is built;
#  4. a twin whose guest fails fails its configuration (exit 1, nothing saved for it);
#  after each run no nbdkit runs, the images directory is empty and no journal is left.
# Skipped (one "ok ... # skip" line) where nbdkit, the filter, qemu-img or jq is missing.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

SO=
for d in "$(dirname "$SB_BIN")/build" "$(dirname "$SB_BIN")"; do
    [ -f "$d/storbench-nbdkit-model.so" ] && SO=$d/storbench-nbdkit-model.so && break
done
if ! command -v nbdkit >/dev/null || [ -z "$SO" ] || ! command -v qemu-img >/dev/null || ! command -v jq >/dev/null; then
    ok "host-bound-check under --vm # skip: needs nbdkit, nbdkit-plugin-dev (the filter), qemu-utils, jq (scripts/bootstrap)"
    finish
fi
export STORBENCH_STATE_DIR=$T/state STORBENCH_NBDKIT_FILTER=$SO
IMG=$T/img LOG=$T/qemu.log FAKE=$T/fake-qemu
mkdir -p "$IMG" "$STORBENCH_STATE_DIR"
cat >"$FAKE" <<EOF
#!/bin/bash
if [ "\$1" = --version ]; then echo "QEMU emulator version 7.2.0 (fake for tests)"; exit 0; fi
xchg= kernel= models= sizes= prev=
for a in "\$@"; do
    [ "\$prev" = -kernel ] && kernel=\$a
    prev=\$a
    case "\$a" in
    *mount_tag=xchg*) xchg=\${a#local,path=}; xchg=\${xchg%%,mount_tag=xchg*}; xchg=\${xchg//,,/,} ;;
    *file.driver=nbd*)
        sock=\${a#*file.server.path=}; sock=\${sock%%,cache=*}; sock=\${sock//,,/,}
        m=\$(pgrep -a -f "nbdkit.* --unix \$sock " | sed -n 's/.* model=\([^ ]*\).*/\1/p' | head -1)
        s=\$(qemu-img info --output=json "nbd+unix:///?socket=\$sock" | jq '."virtual-size"')
        models=\${models:+\$models,}\${m:-?}; sizes=\${sizes:+\$sizes,}\$s ;;
    esac
done
echo "storbench-vm: up"
id=\$(tr '\0' '\n' <"\$xchg/args" | sed -n 4p)
echo "boot|\$id|\${models:-none}|\$sizes|\$kernel" >>"$LOG"
fig=\$(grep -F "\$id|\${models:-none}=" "$T/figs" | sed 's/.*=//')
[ -n "\$fig" ] || { echo 1 >"\$xchg/status"; exit 0; }
mkdir -p "$T/guest-target"
"$SB_BIN" run dd:count=1 --runs 1 --no-drop-caches --target "$T/guest-target" --result "\$xchg/guest.json" \\
    --identifier "\$id" >/dev/null 2>&1 &&
jq --argjson v "\$fig" '(.results[].entries[]) |= (.mean = \$v | .values = [\$v] | .sd = 0 | .se = 0)' \\
    "\$xchg/guest.json" >"\$xchg/result.json"
echo \$? >"\$xchg/status"
exit 0
EOF
chmod +x "$FAKE"
export STORBENCH_QEMU=$FAKE STORBENCH_KVM_DEVICE=/dev/null
cat >"$T/figs" <<'FIGS'
Modeled HDD|hdd-hua723020=100
Modeled HDD|ram=110
Modeled Pair|ssd-850evo,hdd-hua723020=100
Modeled Pair|ram,ram=300
Emulated SSD|none=50
FIGS
cat >"$T/h.ini" <<'INI'
[scenario]
title = Host-bound under --vm
host-bound-check = yes
[Modeled HDD]
filesystem = ext4
device-model = hdd-hua723020
[Modeled Pair]
filesystem = btrfs
devices = 2
raid = raid1
device-model = ssd-850evo,hdd-hua723020
[Emulated SSD]
filesystem = ext4
INI
VMARGS=(--vm --vm-accel tcg --vm-time host --suite dd -o count=1 -n 1 --exact-runs --vm-cpus 1 --images "$IMG" --image-size 64M)
left_over() { # after a run: no nbdkit of ours, no image, no journal
    if pgrep -f "nbdkit.*$IMG" >/dev/null; then not_ok "$1: no nbdkit of ours running"; else ok "$1: no nbdkit of ours running"; fi
    if [ -z "$(ls -A "$IMG")" ]; then ok "$1: images dir empty"; else not_ok "$1: images dir empty ($(ls -A "$IMG"))"; fi
    if [ -z "$(ls -A "$STORBENCH_STATE_DIR")" ]; then ok "$1: no journal left"
    else not_ok "$1: no journal left ($(ls -A "$STORBENCH_STATE_DIR"))"; fi
}
boots() { grep -c "^boot|$1|" "$LOG"; }

# 1-2. host-bound-check = yes under --vm.
check_exit "--vm with host-bound-check: exit 0" 0 "$SB" scenario run "$T/h.ini" "${VMARGS[@]}" --result "$T/r.json"
cp "$T/out" "$T/run.out"
if [ "$(boots "Modeled HDD")" = 2 ] && [ "$(boots "Modeled Pair")" = 2 ]; then
    ok "each modeled configuration booted twice (its ram twin in a guest of its own)"
else not_ok "each modeled configuration booted twice ($(cut -d'|' -f2,3 "$LOG" | tr '\n' ' '))"; fi
if [ "$(boots "Emulated SSD")" = 1 ]; then ok "a configuration without a device-model: no twin"
else not_ok "a configuration without a device-model: no twin ($(boots "Emulated SSD") boots)"; fi
if grep -q "^boot|Modeled HDD|ram|" "$LOG" && grep -q "^boot|Modeled Pair|ram,ram|" "$LOG"; then
    ok "the twins' disks were nbdkit serving the ram model (every device)"
else not_ok "the twins' disks were ram models ($(cut -d'|' -f2,3 "$LOG" | tr '\n' ' '))"; fi
same=$(awk -F'|' '{k[$2]=k[$2] ? k[$2] : $4 "|" $5; if (k[$2] != $4 "|" $5) bad=1} END {print bad ? "no" : "yes"}' "$LOG")
sizes=$(grep -v "|none|" "$LOG" | cut -d"|" -f4 | tr ',' '\n' | sort -u | tr '\n' ' ')
if [ "$same" = yes ] && [ "$sizes" = "67108864 " ]; then ok "each twin: the same kernel and disk size (64 MiB) as its configuration"
else not_ok "each twin: the same kernel and disk size ($(cut -d'|' -f2- "$LOG" | tr '\n' ' '))"; fi
J=$("$SB" show "$T/r.json" --format json)
n=$(jq '[.results[].entries[] | select(.identifier == "Modeled HDD")] | length' <<<"$J")
hb=$(jq '[.results[].entries[] | select(.identifier == "Modeled HDD" and .host_bound.reference_mean == 110)] | length' <<<"$J")
if [ "$n" -gt 0 ] && [ "$hb" = "$n" ]; then ok "modeled HDD, twin 110 against 100: every figure host-bound, the twin's figure recorded ($n)"
else not_ok "modeled HDD host-bound with the twin's 110 ($hb of $n)"; fi
nb=$(jq '[.results[].entries[] | select(.identifier != "Modeled HDD" and .host_bound != null)] | length' <<<"$J")
np=$(jq '[.results[].entries[] | select(.identifier == "Modeled Pair")] | length' <<<"$J")
if [ "$np" -gt 0 ] && [ "$nb" = 0 ]; then ok "twin 300 against 100, and no twin: not host-bound"
else not_ok "twin 300 against 100, and no twin: not host-bound ($nb marked, $np pair figures)"; fi
if grep -q "^Modeled HDD: $n figures\? host-bound" "$T/run.out" && grep -q "^Modeled Pair: 0 figures host-bound" "$T/run.out"; then
    ok "the run says how many figures each twin marked"
else not_ok "the run says how many figures each twin marked ($(grep "host-bound" "$T/run.out" | tr '\n' ' '))"; fi
ids=$(jq -r '[.systems[].identifier] | sort | join(",")' <<<"$J")
dev=$(jq -r '.systems[] | select(.identifier == "Modeled Pair") | .storage."Emulated Devices"' <<<"$J")
if [ "$ids" = "Emulated SSD,Modeled HDD,Modeled Pair" ] && [[ "$dev" == *"modeled ssd-850evo"*"modeled hdd-hua723020"* ]]; then
    ok "the twins are not saved: one system each, recording its own models ($dev)"
else not_ok "the twins are not saved ($ids; $dev)"; fi
"$SB" show "$T/r.json" >"$T/page.txt" 2>&1
if grep -q "Modeled HDD.*(host-bound)" "$T/page.txt" && ! grep -q "Modeled Pair.*(host-bound)" "$T/page.txt"; then
    ok "the text page marks the host-bound rows"
else not_ok "the text page marks the host-bound rows ($(grep -c "host-bound" "$T/page.txt"))"; fi
left_over "after the run"

# 3. Without host-bound-check: no twin.
: >"$LOG"
sed '/^host-bound-check/d' "$T/h.ini" >"$T/n.ini"
check_exit "--vm without host-bound-check: exit 0" 0 "$SB" scenario run "$T/n.ini" "${VMARGS[@]}" --result "$T/n.json"
if [ "$(wc -l <"$LOG")" = 3 ] && ! jq -e '[.results[].entries[] | select(.host_bound != null)] | length > 0' \
       <("$SB" show "$T/n.json" --format json) >/dev/null; then ok "without host-bound-check: one guest each, nothing marked"
else not_ok "without host-bound-check: one guest each ($(wc -l <"$LOG") boots)"; fi

# 4. A twin whose guest fails: its configuration fails and is not saved; the others are.
: >"$LOG"
sed -i '/^Modeled HDD|ram=/d' "$T/figs"
check_exit "a failing twin: exit 1" 1 "$SB" scenario run "$T/h.ini" "${VMARGS[@]}" --result "$T/f.json"
ids=$(jq -r '[.systems[].identifier] | sort | join(",")' <("$SB" show "$T/f.json" --format json))
if [ "$ids" = "Emulated SSD,Modeled Pair" ] && grep -q "Modeled HDD.*storbench in the guest failed" "$T/err"; then
    ok "a failing twin: its configuration not saved, the others are, stderr names it"
else not_ok "a failing twin: its configuration not saved ($ids; $(head -c 300 "$T/err"))"; fi
left_over "after the failing twin"
finish
