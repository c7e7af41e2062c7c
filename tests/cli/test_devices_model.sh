# scenario device-model (docs/devices.md): bad specs refused at parse time with one line
# and exit 2, device-model refused with --devices, the plan names the models; then, with
# root, loop devices and FUSE: a run on modeled devices (the page's Disk says so) after
# which nothing is left; Ctrl-C; and SIGKILL, after which the guardian takes everything
# apart by itself (no `scenario cleanup`). The parts that build storage are skipped
# ("ok ... # skip") without root, loop devices, /dev/fuse or mkfs.ext4.
. "${STORBENCH_SRC:-.}/tests/cli/lib.sh"

. "${STORBENCH_SRC:-.}/tests/cli/scenario_lib.sh"

# ---- no root needed ----
printf '[a]\nfilesystem = ext4\ndevice-model = ssd-850evo,rpm=7200\n' >"$T/bad.ini"
check_exit "a key of another kind is refused" 2 "$SB" scenario check "$T/bad.ini"
check_one_line "one line naming the key and the line" "bad.ini:3: device-model: 'ssd-850evo': rpm does not apply to an SSD"
printf '[a]\nfilesystem = ext4\ndevice-model = floppy\n' >"$T/bad2.ini"
check_exit "an unknown preset is refused" 2 "$SB" scenario run "$T/bad2.ini" --suite dd --result r --images "$IMG"
check_one_line "unknown preset: one line" "unknown preset"
printf '[a]\nfilesystem = btrfs\ndevices = 2\ndevice-model = ssd-850evo,cache-mb=2,hdd-hua723020\n' >"$T/two.ini"
check_exit "one spec per device, with overrides" 0 "$SB" scenario check "$T/two.ini"
check "the plan names both models" grep -q "modeled as ssd-850evo,cache-mb=2 + hdd-hua723020" "$T/out"
check_exit "device-model with --devices is refused" 2 "$SB" scenario run "$T/two.ini" --suite dd --result r \
    --devices /dev/null,/dev/zero --destroy-data-on /dev/null,/dev/zero
check_one_line "with --devices: one line" "device-model models loop images"

# ---- root, loop devices, FUSE ----
can_build() {
    [ "$(id -u)" -eq 0 ] && [ -w /dev/loop-control ] && [ -c /dev/fuse ] || return 1
    command -v mkfs.ext4 >/dev/null && command -v losetup >/dev/null || return 1
    truncate -s 1M "$T/probe.img" && local l && l=$(losetup -f --show "$T/probe.img" 2>/dev/null) || return 1
    losetup -d "$l"
    rm -f "$T/probe.img"
}
if ! can_build; then
    ok "modeled devices # skip: needs root, loop devices, /dev/fuse, mkfs.ext4"
    finish
fi

printf '[scenario]\ntitle = Modeled\n[SSD]\nfilesystem = ext4\ndevice-model = ssd-850evo\n[RAM]\nfilesystem = ext4\ndevice-model = ram\n' >"$T/m.ini"
check_exit "two configurations on modeled devices" 0 "$SB" scenario run "$T/m.ini" --suite dd $DD \
    --result "$T/m.json" --images "$IMG" --image-size 128M
check "both saved" grep -q "2 of 2 configurations saved" "$T/out"
check "the page's Disk names the model" grep -q '"Disk": *"134MB Loop Image modeled as ssd-850evo"' "$T/m.json"
check "and the ram model" grep -q '"Disk": *"134MB Loop Image modeled as ram"' "$T/m.json"
nothing_left "after success"

# host-bound-check: each modeled configuration again on ram models. A 2 MB/s link makes the
# model, not the host, bound dd's 4 MiB (a ram twin is hundreds of times faster): not marked.
printf '[scenario]\nhost-bound-check = yes\n[Slow link]\nfilesystem = ext4\ndevice-model = ssd-850evo,iface-mbps=2\n[RAM]\nfilesystem = ext4\ndevice-model = ram\n' >"$T/hb.ini"
check_exit "host-bound-check runs" 0 "$SB" scenario run "$T/hb.ini" --suite dd $DD --result "$T/hb.json" \
    --images "$IMG" --image-size 128M
check "the modeled configuration's ram twin ran" grep -q "^== Slow link again on device-model = ram (host-bound-check)" "$T/out"
# Whether a figure is marked depends on how busy the host is (the rule compares times): the
# test asserts that the figures were checked and that the marks saved are the ones counted.
check "and its figures were checked" grep -qE "^Slow link: [0-9]+ figures? host-bound" "$T/out"
check "a ram configuration has no twin" bash -c "! grep -q '^== RAM again' '$T/out'"
check "the twin's figures are not saved" bash -c "[ \$(jq '[.results[].entries[]] | length' '$T/hb.json') = \$(jq '[.results[] | select(.entries | length == 2)] | length * 2' '$T/hb.json') ]"
hb_said=$(sed -nE 's/^Slow link: ([0-9]+) figures? host-bound.*/\1/p' "$T/out" | head -1)
hb_saved=$(jq '[.results[].entries[] | select(.host_bound != null)] | length' "$T/hb.json")
check "the marks saved are the ones counted ($hb_said said, $hb_saved saved)" test "${hb_said:-x}" = "$hb_saved"
nothing_left "after host-bound-check"

printf '[Slow]\nfilesystem = ext4\ndevice-model = ram\n' >"$T/long.ini"
LONG="-o count=64 -o bs=1M -n 50 --exact-runs --no-drop-caches"
wait_mounted() {
    for _ in $(seq 1 300); do
        findmnt -rn -o TARGET | grep -q "^$IMG/storbench-mnt-.*-[A-Za-z0-9]\{6\}$" && return 0
        sleep 0.1
    done
    return 1
}
"$SB" scenario run "$T/long.ini" --suite dd $LONG --result "$T/int.json" --images "$IMG" --image-size 128M \
    >"$T/int.out" 2>"$T/int.err" &
P=$!
if wait_mounted; then
    sleep 0.3
    kill -INT "$P"
    wait "$P"; rc=$?
    check "Ctrl-C exits 130" test "$rc" -eq 130
    check "Ctrl-C saved nothing" test ! -e "$T/int.json"
    nothing_left "after Ctrl-C"
else
    kill -9 "$P" 2>/dev/null
    not_ok "Ctrl-C: the run never mounted ($(cat "$T/int.err"))"
fi

"$SB" scenario run "$T/long.ini" --suite dd $LONG --result "$T/kill.json" --images "$IMG" --image-size 128M \
    >"$T/kill.out" 2>"$T/kill.err" &
P=$!
if wait_mounted; then
    sleep 0.3
    kill -KILL "$P"
    wait "$P" 2>/dev/null
    # The guardian sees its run gone and replays the journal itself: wait for it (up to a
    # minute: a bound for a loaded machine, not a measurement).
    for _ in $(seq 1 600); do
        if ! findmnt -rn -o TARGET | grep -q "^$T/" && [ -z "$(ls -A "$STORBENCH_STATE_DIR")" ]; then break; fi
        sleep 0.1
    done
    nothing_left "after SIGKILL, without cleanup"
    check_exit "a cleanup then finds nothing" 0 "$SB" scenario cleanup --images "$IMG"
    check "nothing to clean" grep -q "0 interrupted runs cleaned up, 0 stray files" "$T/out"
else
    kill -9 "$P" 2>/dev/null
    not_ok "SIGKILL: the run never mounted ($(cat "$T/kill.err"))"
fi
finish
