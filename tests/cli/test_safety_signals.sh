#!/bin/bash
# Signals and the save (issue 24, item 7; docs/architecture.md, "Interruption"): a
# SIGTERM, SIGHUP or SIGINT that arrives while `run`, `import` or `merge` is saving lets the
# save finish, then the command says "interrupted (signal N) after saving ..." and exits
# 130, and the file has what it saved; one that arrives before the save (here: `import -`
# still reading its page) saves nothing, says so and exits 130, never the shell's silent
# 143. The save is held open with the test-only STORBENCH_TEST_SAVE_DELAY_MS, and the
# signal sent once the command holds the result file's lock (seen in /proc/locks), so
# that it lands inside the save.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/safety_lib.sh"
command -v jq >/dev/null || { ok "signals (skipped: needs jq) # SKIP"; finish; }
D=$T/results
mkdir -p "$D"
S0=$SEEDS/000_a97674fdc4297efd.txt
S1=$SEEDS/001_5b3cf86a040befc6.txt

# Waits (at most 20 s) until pid holds the lock of result file R (a flock on the inode of
# R's lock file, which exists only while a save holds it): its save has begun.
wait_for_save() { # PID R
    local pid=$1 lf ino
    lf=$(dirname "$2")/.$(basename "$2").lock
    for _ in $(seq 400); do
        ino=$(stat -c %i "$lf" 2>/dev/null) &&
            grep -q "FLOCK .* $pid [0-9a-f]*:[0-9a-f]*:$ino " /proc/locks && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# during_save NAME SIGNAL RESULT WANT_ID COMMAND...: the command, its save held 3 s, is sent
# SIGNAL inside the save.
during_save() {
    local name=$1 sig=$2 r=$3 id=$4; shift 4
    STORBENCH_TEST_SAVE_DELAY_MS=3000 "$@" >"$T/out" 2>"$T/err" &
    local pid=$!
    if ! wait_for_save "$pid" "$r"; then
        wait "$pid"
        not_ok "$name: the save never took the lock (exit $?: $(head -c 200 "$T/err"))"
        return
    fi
    kill -"$sig" "$pid"
    wait "$pid"; local rc=$?
    if [ "$rc" -eq 130 ]; then ok "$name: exit 130"; else not_ok "$name: exit $rc, wanted 130 ($(head -c 200 "$T/err"))"; fi
    if grep -q "interrupted (signal [0-9]*) after saving" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ]; then
        ok "$name: one line says it was saved"
    else
        not_ok "$name: one line says it was saved ($(head -c 300 "$T/err"))"
    fi
    if safety_ids "$r" | grep -qxF "$id"; then ok "$name: the file has it"; else not_ok "$name: the file has it"; fi
    check "$name: no lock or temporary file left" test -z "$(ls -A "$(dirname "$r")" | grep -v '\.json$')"
}

during_save "SIGTERM during run's save" TERM "$D/run.json" sig-run \
    "$SB" run dd --quick --runs 1 -o count=8 -t "$SAFETY_TARGET" --result "$D/run.json" -i sig-run
grep -q "after saving 'sig-run' in $D/run.json" "$T/err" && ok "run: names what it saved" ||
    not_ok "run: names what it saved ($(head -c 200 "$T/err"))"
during_save "SIGHUP during import's save" HUP "$D/imp.json" "Single Disk" \
    "$SB" import "$S1" --result "$D/imp.json"
"$SB" import "$S0" --result "$D/other.json" >/dev/null
during_save "SIGINT during merge's save" INT "$D/imp.json" "Samsung 950 PRO 256GB" \
    "$SB" merge "$D/imp.json" "$D/other.json"

# ---- before the save: import still reading its page from a pipe ----
sum=$(md5sum <"$D/imp.json")
mkfifo "$T/page"
exec 5<>"$T/page" # a writer that never writes: the read blocks
"$SB" import - --result "$D/imp.json" <"$T/page" >"$T/out" 2>"$T/err" &
pid=$!
# reading: storbench (not the wrapper any more) asleep in a pipe read
for _ in $(seq 200); do
    [ "$(readlink /proc/$pid/exe 2>/dev/null)" = "$(readlink -f "$SB_BIN")" ] &&
        grep -q pipe "/proc/$pid/wchan" 2>/dev/null && break
    sleep 0.05
done
kill -TERM "$pid"
wait "$pid"; rc=$?
exec 5>&-
check "SIGTERM while import reads: exit 130 (not a silent 143)" test "$rc" -eq 130
check_one_line "SIGTERM while import reads: one line" "interrupted (signal 15); nothing saved"
check "SIGTERM while import reads: the file as it was" test "$(md5sum <"$D/imp.json")" = "$sum"

# ---- scenario run: a signal during the first configuration's save ----
if [ "$(id -u)" -eq 0 ] && [ -w /dev/loop-control ] && command -v mkfs.ext4 >/dev/null; then
    export STORBENCH_STATE_DIR=$T/state
    mkdir -p "$T/img"
    printf '[first]\nfilesystem = ext4\n[second]\nfilesystem = ext4\n' >"$T/two.ini"
    during_save "SIGTERM during scenario run's save" TERM "$D/scn.json" first \
        "$SB" scenario run "$T/two.ini" --suite dd -o count=4 -o bs=1M -n 1 --exact-runs \
        --result "$D/scn.json" --images "$T/img" --image-size 64M
    check "scenario: names the configuration it saved" grep -q "after saving 'first'" "$T/err"
    check "scenario: builds no more" test "$(safety_ids "$D/scn.json")" = first
    check "scenario: nothing left of its images" test -z "$(ls -A "$T/img")"
else
    ok "scenario run interrupted in its save (skipped: needs root, loop devices, mkfs.ext4) # SKIP"
fi
finish
