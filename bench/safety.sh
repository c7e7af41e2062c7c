#!/bin/bash
# bench/safety.sh — the long safety run of issue 24: N random trials, each of one class
# chosen at random (seeded), across every test, each checking storbench's promises:
#   concurrency  K (2..5) runs, imports and merges at once into one result file: every
#                command exits 0, no identifier lost, no lock or temporary file left;
#   kill         SIGKILL, SIGINT or SIGTERM at a random moment of `run TEST` at a tiny
#                scale (dd fio fs-mark postmark compilebench dbench iozone sqlite): exit 130
#                (or killed, or 0 when the run ended first), the result file the old one or
#                the complete new one, nothing left in the target (after SIGKILL: after the
#                next run), no process left;
#   fault        the target full (a tiny tmpfs; filled mid-run; out of inodes), removed
#                mid-run, read-only, or the result file's directory read-only: exit 1 with one
#                line naming the cause (a read-only target: exit 2, refused with the
#                arguments) and the result file unchanged (or, when the fault landed after
#                the run's last write, exit 0 with its figures saved and none of them 0);
#   output       stdout a closed pipe or /dev/full: run saves and exits 1 with one line;
#                show/compare/list exit 1 naming the error;
#   symlink      an unprivileged user's (sbattacker) link in a sticky 1777 directory, used
#                as show -o, run --result, import --result, io --filename, io --directory
#                files: refused with one line (or not followed), the victim unchanged.
# Opt-in classes (not in the default set): kill-pgbench (a private PostgreSQL cluster,
# ~17 s a run here) and kill-durability (SIGKILL of the durability recorder can hang the
# machine's writeback until the guardian of issue 24 item 5 lands: not safe on a shared
# machine yet).
# Every trial is bounded (TRIAL_TIMEOUT, default 180 s, and each command under timeout):
# a hang is a failure, never a stuck script. Trials run one after another. Everything made
# (scratch, tmpfs mounts) is removed on exit, also on Ctrl-C, which prints the table of
# the trials done so far.
#
# usage: bench/safety.sh N [--classes LIST] [--seed S] [--trial K] [-v]
#   LIST: comma-separated classes (default concurrency,kill,fault,output,symlink);
#   each trial K of seed S is drawn from its own seed, so `--seed S --trial K` replays it;
#   -v prints a line for every trial, not only for the failed ones.
# Needs root for the mounts and the attacker (those classes are skipped, visibly, without).
# Prints per class: trials, failures, outcomes; each failure with its trial and reason.
# Exit 0 when no trial failed, 1 otherwise, 2 for bad usage.
set -u
usage() { echo "usage: bench/safety.sh N [--classes LIST] [--seed S] [--trial K] [-v]" >&2; exit 2; }
N=""; CLASSES=concurrency,kill,fault,output,symlink; SEED=$(( $(date +%s) % 100000 )); ONLY=""; VERBOSE=""
while [ $# -gt 0 ]; do
    case $1 in
    --classes) CLASSES=${2:?}; shift 2 ;;
    --seed) SEED=${2:?}; shift 2 ;;
    --trial) ONLY=${2:?}; shift 2 ;;
    -v|--verbose) VERBOSE=1; shift ;;
    -h|--help) usage ;;
    *) [ -z "$N" ] || usage; N=$1; shift ;;
    esac
done
[[ "${N:-x}" =~ ^[0-9]+$ ]] && [[ "$SEED" =~ ^[0-9]+$ ]] || usage
[ -z "$ONLY" ] || [[ "$ONLY" =~ ^[0-9]+$ ]] || usage
ALL_CLASSES="concurrency kill fault output symlink kill-pgbench kill-durability"
IFS=, read -ra CL <<<"$CLASSES"
for c in "${CL[@]}"; do [[ " $ALL_CLASSES " == *" $c "* ]] || { echo "safety: unknown class '$c' (one of: $ALL_CLASSES)" >&2; exit 2; }; done
for t in jq timeout setsid pgrep; do command -v $t >/dev/null || { echo "safety: needs $t" >&2; exit 1; }; done

SRC=$(cd "$(dirname "$0")/.." && pwd)
SB_BIN=$(readlink -f "${STORBENCH_BIN:-$SRC/storbench}")
[ -x "$SB_BIN" ] || { echo "safety: no binary $SB_BIN (make first)" >&2; exit 1; }
SEEDS=$SRC/tests/data/seeds
PAGE=$SEEDS/001_5b3cf86a040befc6.txt
TRIAL_TIMEOUT=${TRIAL_TIMEOUT:-180}
CMD_TIMEOUT=${CMD_TIMEOUT:-120}
export LC_ALL=C

W=$(mktemp -d /var/tmp/sbsafety.XXXXXX) || exit 1
chmod 0711 "$W" # the attacker reaches its sticky directories, nothing else
T=$W/lib # the scratch of tests/cli/safety_lib.sh
mkdir -p "$T"
export XDG_DATA_HOME=$W/xdg
# safety_lib.sh's $SB: the binary behind a wrapper adding --no-drop-caches to run (as
# tests/cli/lib.sh): as root every run would otherwise drop the whole machine's page cache.
SB=$W/storbench
printf '%s\n' '#!/bin/sh' "[ \"\$1\" = run ] && shift && exec '$SB_BIN' run --no-drop-caches \"\$@\"" \
    "exec '$SB_BIN' \"\$@\"" >"$SB"
chmod +x "$SB"
. "$SRC/tests/cli/safety_lib.sh"
ROOT=0; [ "$(id -u)" = 0 ] && ROOT=1
ATT=sbattacker
OLD_PS=""
CUR_TRIAL_PID=""
DONE=0

# ---------------------------------------------------------------- cleanup --
kill_tree() { # PID: it and its descendants, by id
    local p c
    for p in "$@"; do
        for c in $(pgrep -P "$p" 2>/dev/null); do kill_tree "$c"; done
        kill -KILL "$p" 2>/dev/null
    done
}
umount_trial() { # the mounts the current trial made ($W/mounts), innermost first
    [ -s "$W/mounts" ] || return 0
    local m
    tac "$W/mounts" | while read -r m; do
        mountpoint -q "$m" && { umount "$m" 2>/dev/null || umount -l "$m"; }
    done
    : >"$W/mounts"
}
cleanup() {
    trap '' INT TERM HUP
    [ -n "$CUR_TRIAL_PID" ] && kill_tree "$CUR_TRIAL_PID"
    umount_trial
    [ -n "$OLD_PS" ] && sysctl -qw fs.protected_symlinks="$OLD_PS"
    rm -rf "$W"
}
trap cleanup EXIT
trap 'echo "safety: interrupted after $DONE trials" >&2; summary; exit 130' INT TERM HUP

# ---------------------------------------------------------------- helpers --
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# pick VAR ITEM...: one of the items, drawn in this shell (a $(...) subshell would draw
# from a fresh seed of its own, and the trial would not replay).
pick() { local v=$1; shift; local a=("$@"); printf -v "$v" '%s' "${a[RANDOM % ${#a[@]}]}"; }
sleep_ms() { sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"; }
WHY=""
fail() { WHY="${WHY:+$WHY; }$*"; }
outcome() { echo "$*" >"$W/outcome"; }
tmo() { timeout -k 5 "$CMD_TIMEOUT" "$@"; } # rc 124 (or 137): a hang
# wait_bounded PID SECONDS: 0 when PID ended in time (status in WAIT_RC), else 1.
wait_bounded() {
    local end=$(( $(now_ms) + $2 * 1000 ))
    while kill -0 "$1" 2>/dev/null; do
        [ "$(now_ms)" -ge "$end" ] && return 1
        sleep 0.05
    done
    wait "$1" 2>/dev/null; WAIT_RC=$?
    return 0
}
# one_line FILE REGEX: FILE (stderr) is one line matching REGEX (grep -E, case-insensitive).
one_line() { [ "$(grep -c '' "$1")" -eq 1 ] && grep -Eqi -- "$2" "$1"; }
errtext() { head -c 240 "$1" | tr '\n' '|'; }
# A fresh result file in a fresh directory: the systems of seed page 001.
fresh_result() { # DIR -> $DIR/r.json, BEFORE (its md5), OLD_IDS
    rm -rf "$1"; mkdir -p "$1"
    cp "$W/base.json" "$1/r.json"
    BEFORE=$(md5sum <"$1/r.json")
    OLD_IDS=$(safety_ids "$1/r.json")
}
# check_result R ID MODE: MODE old (must be unchanged), new (must have ID added), either.
check_result() {
    local r=$1 id=$2 mode=$3
    if ! jq -e '.systems' "$r" >/dev/null 2>&1; then fail "result file not valid JSON"; return 1; fi
    if [ "$(md5sum <"$r")" = "$BEFORE" ]; then
        [ "$mode" = new ] && { fail "result file unchanged, '$id' not saved"; return 1; }
        return 0
    fi
    [ "$mode" = old ] && { fail "result file changed"; return 1; }
    if [ "$(safety_ids "$r")" != "$(printf '%s\n%s\n' "$OLD_IDS" "$id" | sort)" ]; then
        fail "result file neither old nor old + '$id': $(safety_ids "$r" | tr '\n' ,)"; return 1
    fi
    if ! "$SB_BIN" show "$r" --format json >/dev/null 2>"$W/show.err"; then
        fail "result file not loadable: $(errtext "$W/show.err")"; return 1
    fi
    return 0
}
# The saved figures of ID are all positive (a run whose operations failed must not save 0).
figures_positive() { # R ID
    jq -e --arg id "$2" '[.results[].entries[] | select(.identifier == $id) | .mean] |
        length > 0 and all(. > 0)' "$1" >/dev/null 2>&1
}
beside_clean() { # DIR: nothing but .json files (no lock, no temporary file)
    local left
    left=$(ls -A "$1" | grep -v '\.json$')
    [ -z "$left" ] || { fail "left beside the result: $(echo "$left" | tr '\n' ' ')"; return 1; }
}
target_clean() { # DIR WHEN
    local left
    left=$(ls -A "$1" 2>/dev/null)
    [ -z "$left" ] || { fail "left in the target $2: $(echo "$left" | tr '\n' ' ')"; return 1; }
}
mount_tmpfs() { # DIR OPTIONS
    mkdir -p "$1"
    mount -t tmpfs -o "$2" sbsafety "$1" || { fail "cannot mount a tmpfs ($2)"; return 1; }
    echo "$1" >>"$W/mounts"
}

# The tests at a tiny scale, with the common options.
declare -A ARGS=(
    [dd]="--quick -o count=8 -o bs=256k"
    [fio]="--quick -o size=4m -o runtime=1 -o ramp=0 -o startdelay=0"
    [fs-mark]="-o test=custom -o files=10 -o size=16k"
    [postmark]="-o files=50 -o transactions=200"
    [compilebench]="-o trees=1 -o scale=1"
    [dbench]="-o time=1 -o warmup=0 -o clients=2"
    [iozone]="-o file-size=64m -o record-size=1m"
    [sqlite]="-o count=20"
    [pgbench]="--quick -o scale=1 -o duration=1 -o clients=1 -o threads=1"
    [durability]="--quick"
)
KILL_TESTS=(dd fio fs-mark postmark compilebench dbench iozone sqlite)
run_cmd() { # TEST TARGET RESULT ID: the command line of one tiny run
    # shellcheck disable=SC2206
    RUN=("$SB_BIN" run "$1" ${ARGS[$1]} --runs 1 --exact-runs --no-drop-caches -t "$2" --result "$3" -i "$4")
}
declare -A DUR=() # ms of one tiny run of each test (measured at the start)

# ------------------------------------------------------------ concurrency --
trial_concurrency() {
    local k=$((2 + $((RANDOM % 4))))
    rm -rf "$W/conc"; mkdir -p "$W/conc"
    if trial_concurrent_mix "$k" "$W/conc"; then WHAT="$k: $SAFETY_MIX"; outcome "$k commands at once"; return 0; fi
    fail "$k commands ($SAFETY_MIX): $SAFETY_WHY"
    return 1
}

# ------------------------------------------------------------------- kill --
# Whether process PID catches SIGINT and SIGTERM (its /proc status SigCgt mask).
handlers_up() {
    local k v
    while read -r k v; do
        [ "$k" = SigCgt: ] && { (( (16#$v & 0x4002) == 0x4002 )); return; }
    done <"/proc/$1/status" 2>/dev/null
    return 1
}
trial_kill_test() { # TEST
    local test=$1 sig tgt=$W/kill-target res=$W/kill-res id=k$K pid dur delay rc
    pick sig KILL INT TERM
    mkdir -p "$tgt"
    fresh_result "$res"
    dur=${DUR[$test]:-1000}
    delay=$(( (RANDOM * 32768 + RANDOM) ))
    if [ $((RANDOM % 2)) = 0 ]; then delay=$((delay % (dur * 105 / 100 + 1)))
    else delay=$((dur * 75 / 100 + delay % (dur * 30 / 100 + 1))); fi
    WHAT="$test SIG$sig at ${delay} ms of ~${dur}"
    run_cmd "$test" "$tgt" "$res/r.json" "$id"
    setsid "${RUN[@]}" </dev/null >"$W/kill.out" 2>"$W/kill.err" &
    pid=$!
    # The clock starts once storbench answers signals: its exe is storbench (not setsid
    # before its exec) and it catches SIGINT and SIGTERM (SigCgt bits 1 and 14). Between
    # the exec and main()'s first line the dynamic loader runs for a few ms, and a signal
    # there kills the process as any program dies before it starts (trial 93 of seed 31:
    # SIGTERM "at 1 ms", exit 143, nothing made): not a moment storbench can answer.
    for _ in $(seq 4000); do
        [ /proc/$pid/exe -ef "$SB_BIN" ] && handlers_up "$pid" && break
        kill -0 $pid 2>/dev/null || break
    done
    sleep_ms "$delay"
    kill -"$sig" "$pid" 2>/dev/null
    if ! wait_bounded "$pid" 60; then
        fail "still running 60 s after SIG$sig"
        kill -KILL -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
        return 1
    fi
    rc=$WAIT_RC
    # Processes of its session, or anything still working in the target (a server).
    local left="" i
    for i in $(seq 60); do
        left=$( { pgrep -s "$pid"; pgrep -f -- "$tgt/"; } 2>/dev/null | sort -u | tr '\n' ' ')
        [ -z "$left" ] && break
        sleep 0.05
    done
    if [ -n "$left" ]; then
        fail "left running: $(ps -o pid=,comm= -p "${left// /,}" 2>/dev/null | tr '\n' ' ')"
        # shellcheck disable=SC2086
        kill -KILL $left 2>/dev/null
    fi
    local mode=either
    case "$sig:$rc" in
    *:0) mode=new; outcome "finished before SIG$sig" ;;
    KILL:137) outcome "killed" ;;
    INT:130|TERM:130)
        if grep -q "after saving '$id'" "$W/kill.err"; then mode=new; outcome "SIG$sig in the save: saved, 130"
        elif grep -q "interrupted (signal" "$W/kill.err"; then mode=old; outcome "SIG$sig: nothing saved, 130"
        else fail "exit 130 without saying so: $(errtext "$W/kill.err")"; fi ;;
    *) fail "exit $rc after SIG$sig: $(errtext "$W/kill.err")" ;;
    esac
    check_result "$res/r.json" "$id" "$mode"
    if [ "$sig" != KILL ]; then
        target_clean "$tgt" "after SIG$sig"
        beside_clean "$res"
    else
        # What SIGKILL left (its scratch, a lock) is the next run's to remove.
        run_cmd dd "$tgt" "$res/r.json" "n$K"
        tmo "${RUN[@]}" </dev/null >"$W/next.out" 2>"$W/next.err"; rc=$?
        [ $rc = 0 ] || fail "the next run after SIGKILL: exit $rc: $(errtext "$W/next.err")"
        target_clean "$tgt" "after SIGKILL and the next run"
        beside_clean "$res"
    fi
    rm -rf "${tgt:?}"/*
    [ -z "$WHY" ]
}
trial_kill() { local t; pick t "${KILL_TESTS[@]}"; trial_kill_test "$t"; }
trial_kill-pgbench() { trial_kill_test pgbench; }
trial_kill-durability() {
    local d0 l0
    d0=$(grep -c "^[^ ]* [^ ]* [^ ]* [^ ]* /var/tmp/sbsafety" /proc/self/mountinfo)
    l0=$(losetup -a 2>/dev/null | wc -l)
    trial_kill_test durability
    # No task of the machine stuck in D state on its recorder, nothing mounted after the
    # next run (which the trial made only after SIGKILL; after INT/TERM nothing may be left).
    local dstate
    dstate=$(ps -eo stat=,pid=,comm= | awk '$1 ~ /^D/' | tr '\n' ' ')
    [ -z "$dstate" ] || fail "tasks in D state: $dstate"
    [ "$(losetup -a 2>/dev/null | wc -l)" -le "$l0" ] || fail "loop devices left: $(losetup -a | tail -2 | tr '\n' ' ')"
    [ "$(grep -c "^[^ ]* [^ ]* [^ ]* [^ ]* /var/tmp/sbsafety" /proc/self/mountinfo)" -le "$d0" ] ||
        fail "mounts left under $W"
    [ -z "$WHY" ]
}

# ------------------------------------------------------------------ fault --
FAULT_TESTS=(dd fio fs-mark postmark compilebench dbench iozone sqlite)
# After a fault: exit 1, one line naming CAUSE, result unchanged; or (the fault came after
# the run's last write) exit 0 with its figures saved and positive.
fault_verdict() { # RC ERRFILE CAUSE-REGEX RESULT ID [ALLOW_0]
    local rc=$1 err=$2 cause=$3 r=$4 id=$5 allow0=${6:-0}
    if [ "$rc" = 1 ] || [ "$rc" = "${REFUSE_AT_ONCE:-1}" ]; then
        one_line "$err" "$cause" || fail "exit $rc but not one line naming /$cause/: $(errtext "$err")"
        check_result "$r" "$id" old
        outcome "${OUTCOME_PREFIX}exit $rc"
    elif [ "$rc" = 0 ] && [ "$allow0" = 1 ]; then
        check_result "$r" "$id" new && { figures_positive "$r" "$id" || fail "exit 0 with a figure of 0 or none"; }
        outcome "${OUTCOME_PREFIX}exit 0 (fault after the last write)"
    elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        fail "timed out after $CMD_TIMEOUT s"
    else
        fail "exit $rc: $(errtext "$err")"
        [ "$rc" = 0 ] || check_result "$r" "$id" old
    fi
}
trial_fault() {
    local kind test m=$W/fault-mnt res=$W/fault-res id=f$K rc pid
    pick kind tiny filled inodes removed readonly resultdir
    pick test "${FAULT_TESTS[@]}"
    fresh_result "$res"
    OUTCOME_PREFIX="$kind: "
    case $kind in
    tiny) # smaller than the run needs: refused before anything is made
        WHAT="$test on a 2 MiB tmpfs"
        mount_tmpfs "$m" size=2m || return 1
        run_cmd "$test" "$m" "$res/r.json" "$id"
        tmo "${RUN[@]}" </dev/null >"$W/f.out" 2>"$W/f.err"; rc=$?
        fault_verdict $rc "$W/f.err" "No space left on device" "$res/r.json" "$id"
        target_clean "$m" "after the refusal" ;;
    filled) # room at the start, filled at a random moment of the run
        local delay=$(( (RANDOM * 32768 + RANDOM) % (${DUR[$test]:-1000} + 1) ))
        WHAT="$test, its tmpfs filled at ${delay} ms"
        mount_tmpfs "$m" size=160m || return 1
        run_cmd "$test" "$m" "$res/r.json" "$id"
        tmo "${RUN[@]}" </dev/null >"$W/f.out" 2>"$W/f.err" &
        pid=$!
        sleep_ms "$delay"
        local free
        free=$(df -B1 --output=avail "$m" | tail -1)
        [ "${free:-0}" -gt 4096 ] && fallocate -l $((free - 4096)) "$m/filler" 2>/dev/null
        # the last few KiB too, as small files
        for i in 1 2 3 4 5 6 7 8; do head -c 4096 /dev/zero >"$m/filler.$i" 2>/dev/null || break; done
        wait "$pid"; rc=$?
        fault_verdict $rc "$W/f.err" "No space left on device" "$res/r.json" "$id" 1
        rm -f "$m"/filler*
        target_clean "$m" "after the full disk" ;;
    inodes) # bytes enough, inodes not: the workload meets ENOSPC creating files
        local n=$((2 + $((RANDOM % 30))))
        WHAT="$test on a tmpfs of $n inodes"
        mount_tmpfs "$m" "size=160m,nr_inodes=$n" || return 1
        run_cmd "$test" "$m" "$res/r.json" "$id"
        tmo "${RUN[@]}" </dev/null >"$W/f.out" 2>"$W/f.err"; rc=$?
        fault_verdict $rc "$W/f.err" "No space left on device" "$res/r.json" "$id" 1
        target_clean "$m" "after running out of inodes" ;;
    removed) # the run's directory removed under it, again and again until it ends
        local delay=$(( (RANDOM * 32768 + RANDOM) % (${DUR[$test]:-1000} + 1) )) tgt=$W/fault-target
        WHAT="$test, its directory removed from ${delay} ms"
        mkdir -p "$tgt"
        run_cmd "$test" "$tgt" "$res/r.json" "$id"
        tmo "${RUN[@]}" </dev/null >"$W/f.out" 2>"$W/f.err" &
        pid=$!
        sleep_ms "$delay"
        while kill -0 "$pid" 2>/dev/null; do rm -rf "$tgt"/storbench-* 2>/dev/null; sleep 0.02; done
        wait "$pid"; rc=$?
        fault_verdict $rc "$W/f.err" "No such file or directory" "$res/r.json" "$id" 1
        rm -rf "${tgt:?}"/* ;;
    readonly)
        WHAT="$test on a read-only tmpfs"
        mount_tmpfs "$m" ro,size=64m || return 1
        run_cmd "$test" "$m" "$res/r.json" "$id"
        tmo "${RUN[@]}" </dev/null >"$W/f.out" 2>"$W/f.err"; rc=$?
        # A target storbench cannot write is refused with the arguments, at once: exit 2
        # (tests/cli/test_harness.sh, "read-only target").
        REFUSE_AT_ONCE=2 fault_verdict $rc "$W/f.err" "Read-only file system" "$res/r.json" "$id" ;;
    resultdir) # the result file on a file system remounted read-only
        local cmd
        pick cmd run import merge
        WHAT="$cmd into a result file on a read-only file system"
        mount_tmpfs "$m" size=8m || return 1
        cp "$res/r.json" "$m/r.json"
        "$SB_BIN" import "$SEEDS/004_b63bb00861e0ff85.txt" --result "$W/other.json" >/dev/null 2>&1 ||
            [ -s "$W/other.json" ] || { fail "setup import failed"; return 1; }
        mount -o remount,ro "$m" || { fail "cannot remount read-only"; return 1; }
        mkdir -p "$W/fault-target"
        case $cmd in
        run) run_cmd dd "$W/fault-target" "$m/r.json" "$id"; tmo "${RUN[@]}" ;;
        import) tmo "$SB_BIN" import "$SEEDS/000_a97674fdc4297efd.txt" --result "$m/r.json" ;;
        merge) tmo "$SB_BIN" merge "$m/r.json" "$W/other.json" ;;
        esac </dev/null >"$W/f.out" 2>"$W/f.err"; rc=$?
        fault_verdict $rc "$W/f.err" "Read-only file system" "$m/r.json" "$id"
        [ "$cmd" = run ] && grep -q "MB/s" "$W/f.out" && outcome "resultdir: exit $rc, refused only after measuring"
        target_clean "$W/fault-target" "after the refusal" ;;
    esac
    umount_trial
    [ -z "$WHY" ]
}

# ----------------------------------------------------------------- output --
trial_output() {
    local kind res=$W/out-res id=o$K rc
    pick kind run-closed run-full run-head show-full compare-full list-closed
    fresh_result "$res"
    WHAT=$kind
    mkdir -p "$W/out-target"
    run_cmd dd "$W/out-target" "$res/r.json" "$id"
    rm -f "$W/fifo"; mkfifo "$W/fifo"
    # A pipe whose reader is gone before the first write: open it both ways, open a
    # writer, close the reading end.
    exec 3<>"$W/fifo" 4>"$W/fifo" 3<&-
    case $kind in
    run-closed) tmo "${RUN[@]}" >&4 2>"$W/o.err"; rc=$? ;;
    run-full) tmo "${RUN[@]}" >/dev/full 2>"$W/o.err"; rc=$? ;;
    run-head) tmo "${RUN[@]}" 2>"$W/o.err" | head -1 >/dev/null; rc=${PIPESTATUS[0]} ;;
    show-full) tmo "$SB_BIN" show "$res/r.json" >/dev/full 2>"$W/o.err"; rc=$? ;;
    compare-full) tmo "$SB_BIN" compare "$res/r.json" >/dev/full 2>"$W/o.err"; rc=$? ;;
    list-closed) tmo "$SB_BIN" list >&4 2>"$W/o.err"; rc=$? ;;
    esac
    exec 4>&-
    case $kind in
    run-closed|run-full)
        local e="Broken pipe"; [ $kind = run-full ] && e="No space left on device"
        [ "$rc" = 1 ] || fail "exit $rc, wanted 1: $(errtext "$W/o.err")"
        one_line "$W/o.err" "cannot write to standard output: $e \(the result was saved in" ||
            fail "not one line naming $e and the save: $(errtext "$W/o.err")"
        check_result "$res/r.json" "$id" new ;;
    run-head)
        [ "$rc" -le 1 ] || fail "exit $rc (killed by SIGPIPE?): $(errtext "$W/o.err")"
        check_result "$res/r.json" "$id" new
        outcome "run | head -1: exit $rc" ;;
    *)
        local e="No space left on device"; [ $kind = list-closed ] && e="Broken pipe"
        [ "$rc" = 1 ] || fail "exit $rc, wanted 1: $(errtext "$W/o.err")"
        one_line "$W/o.err" "$e" || fail "not one line naming $e: $(errtext "$W/o.err")"
        check_result "$res/r.json" "$id" old ;;
    esac
    beside_clean "$res"
    target_clean "$W/out-target" "after the run"
    [ -z "$WHY" ]
}

# ---------------------------------------------------------------- symlink --
plant() { setpriv --reuid="$ATT" --regid="$ATT" --clear-groups ln -s "$2" "$1"; } # LINK TARGET
trial_symlink() {
    local kind st=$W/sticky victim=$W/victim res=$W/sym-res rc vsum
    pick kind show-o show-html run-result run-dangling import-result io-filename io-directory
    WHAT=$kind
    rm -rf "$st" "$W/victim"* "$W/created-by-link"
    mkdir "$st" && chmod 1777 "$st"
    fresh_result "$res"
    echo "root's precious file $K" >"$victim"
    vsum=$(md5sum <"$victim")
    mkdir -p "$W/sym-target"
    local refuse=1 link=$st/link
    case $kind in
    show-o) plant "$link" "$victim"; tmo "$SB_BIN" show "$res/r.json" -o "$link" ;;
    show-html) plant "$link" "$victim"; tmo "$SB_BIN" show "$res/r.json" --format html -o "$link" ;;
    run-result) plant "$link" "$victim"; run_cmd dd "$W/sym-target" "$link" "s$K"; tmo "${RUN[@]}" ;;
    run-dangling) plant "$link" "$W/created-by-link"; run_cmd dd "$W/sym-target" "$link" "s$K"; tmo "${RUN[@]}" ;;
    import-result) plant "$link" "$victim"; tmo "$SB_BIN" import "$PAGE" --result "$link" ;;
    io-filename) plant "$link" "$victim"; tmo "$SB_BIN" io --filename "$link" --rw write --bs 4k --size 64k ;;
    io-directory)
        refuse=0
        plant "$st/storbench-io.0" "$victim"; plant "$st/storbench-io.1" "$W/victim.1"
        tmo "$SB_BIN" io --directory "$st" --rw write --bs 4k --size 64k --numjobs 2 ;;
    esac </dev/null >"$W/s.out" 2>"$W/s.err"; rc=$?
    if [ $refuse = 1 ]; then
        [ "$rc" = 1 ] || fail "exit $rc, wanted 1 (refused): $(errtext "$W/s.err")"
        one_line "$W/s.err" "not following the symlink" || fail "not one line saying so: $(errtext "$W/s.err")"
        [ -L "$link" ] || fail "the attacker's link was replaced"
        grep -q "MB/s" "$W/s.out" && fail "measured before refusing"
    else
        [ "$rc" = 0 ] || fail "exit $rc: $(errtext "$W/s.err")"
        [ -L "$st/storbench-io.0" ] && [ -L "$st/storbench-io.1" ] || fail "the attacker's links were touched"
        [ -e "$W/victim.1" ] && fail "a file was created where a link points"
    fi
    [ "$(md5sum <"$victim")" = "$vsum" ] || fail "the victim was changed"
    [ -e "$W/created-by-link" ] && fail "a file was created where the dangling link points"
    [ "$(md5sum <"$res/r.json")" = "$BEFORE" ] || fail "the result file was changed"
    target_clean "$W/sym-target" "after the refusal"
    [ -z "$WHY" ]
}

# ---------------------------------------------------------------- summary --
summary() {
    [ -s "$W/tally" ] || { echo "safety: no trial done"; return; }
    echo
    printf '%-16s %7s %9s %10s\n' class trials failures "mean s"
    awk -F '\t' '{ n[$1]++; s[$1] += $7; if ($2 == "FAIL") f[$1]++ }
        END { for (c in n) printf "%-16s %7d %9d %10.1f\n", c, n[c], f[c], s[c] / n[c] / 1000 }' "$W/tally" | sort
    awk -F '\t' '{ n++; s += $7; if ($2 == "FAIL") f++ }
        END { printf "%-16s %7d %9d %10.1f\n", "all", n, f, s / n / 1000 }' "$W/tally"
    echo
    echo "outcomes:"
    awk -F '\t' '{ print "  " $1 ": " $5 }' "$W/tally" | sed 's/ [0-9]* ms of ~[0-9]*//' | sort | uniq -c | sort -k2,2 -k1,1nr |
        awk '{ c = $1; $1 = ""; printf "  %5d %s\n", c, substr($0, 2) }'
    if grep -q $'\tFAIL\t' "$W/tally"; then
        echo
        echo "failures (replay one with: bench/safety.sh 1 --seed $SEED --trial K --classes CLASS):"
        awk -F '\t' '$2 == "FAIL" { printf "  trial %s, %s, %s: %s\n", $3, $1, $4, $6 }' "$W/tally"
    fi
}

# -------------------------------------------------------------------- main --
want() { [[ ",$CLASSES," == *",$1,"* ]]; }
if [ $ROOT = 0 ]; then
    for c in fault symlink kill-durability; do want $c && echo "safety: class $c skipped: needs root (mounts, another user)"; done
    CL=( $(for c in "${CL[@]}"; do case $c in fault|symlink|kill-durability) ;; *) echo "$c" ;; esac; done) )
fi
if want symlink && [ $ROOT = 1 ]; then
    id "$ATT" >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin "$ATT" 2>/dev/null
    if ! id "$ATT" >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
        echo "safety: class symlink skipped: no user $ATT (useradd failed) or no setpriv"
        CL=( $(for c in "${CL[@]}"; do [ "$c" = symlink ] || echo "$c"; done) )
    else
        # The kernel's own rule off, so that what is tested is storbench's (restored on exit).
        ps=$(sysctl -n fs.protected_symlinks 2>/dev/null)
        if [ -n "$ps" ] && [ "$ps" != 0 ]; then sysctl -qw fs.protected_symlinks=0 && OLD_PS=$ps; fi
        echo "safety: fs.protected_symlinks=0 during the run (was ${ps:-unknown})"
    fi
fi
[ ${#CL[@]} -gt 0 ] || { echo "safety: no class left to run"; exit 1; }
"$SB_BIN" import "$PAGE" --result "$W/base.json" >/dev/null 2>"$W/err" ||
    { echo "safety: cannot import the starting page: $(cat "$W/err")"; exit 1; }

# One run of each test the kill and fault trials use, to place their signals.
tests=()
want kill || want fault && tests+=("${KILL_TESTS[@]}")
want kill-pgbench && tests+=(pgbench)
want kill-durability && tests+=(durability)
mkdir -p "$W/probe"
for t in "${tests[@]}"; do
    run_cmd "$t" "$W/probe" "$W/probe.json" "probe-$t"
    s=$(now_ms)
    if ! tmo "${RUN[@]}" </dev/null >/dev/null 2>"$W/err"; then
        echo "safety: a plain run of $t fails, so its trials cannot be judged: $(errtext "$W/err")"
        exit 1
    fi
    DUR[$t]=$(( $(now_ms) - s ))
done
rm -rf "$W/probe" "$W/probe.json"
printf 'safety: seed %s, %s trials of %s; storbench %s (%s)\n' "$SEED" "$N" "${CL[*]}" \
    "$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null)" "$SB_BIN"
[ ${#DUR[@]} -gt 0 ] && echo "safety: one tiny run takes (ms): $(for t in "${!DUR[@]}"; do printf '%s %s, ' "$t" "${DUR[$t]}"; done | sed 's/, $//')"

: >"$W/tally"; : >"$W/mounts"
START=$(date +%s)
for K in $(seq 0 $((N - 1))); do
    [ -n "$ONLY" ] && K=$ONLY
    # Each trial its own seed, a hash of S and K (bash's generator gives close first
    # values for close seeds).
    RANDOM=$(( 16#$(echo "$SEED.$K" | md5sum | cut -c1-7) ))
    TRIAL_SEED=$RANDOM
    T0=$(now_ms)
    pick CLASS "${CL[@]}"
    WHY="" WHAT=""
    rm -f "$W/why" "$W/what" "$W/outcome"
    # The trial in a subshell, bounded: what it found comes back in files.
    ( trap - INT TERM HUP EXIT
      RANDOM=$TRIAL_SEED # a subshell reseeds its generator at its first use unless told
      "trial_$CLASS"; rc=$?
      echo "$WHY" >"$W/why"; echo "$WHAT" >"$W/what"; exit $rc ) &
    CUR_TRIAL_PID=$!
    if wait_bounded "$CUR_TRIAL_PID" "$TRIAL_TIMEOUT"; then
        rc=$WAIT_RC
        why=$(cat "$W/why" 2>/dev/null)
        [ $rc = 0 ] || [ -n "$why" ] || why="trial ended with status $rc"
    else
        kill_tree "$CUR_TRIAL_PID"; wait "$CUR_TRIAL_PID" 2>/dev/null
        rc=1; why="trial still running after $TRIAL_TIMEOUT s (a hang)"
    fi
    CUR_TRIAL_PID=""
    umount_trial
    what=$(cat "$W/what" 2>/dev/null); out=$(cat "$W/outcome" 2>/dev/null)
    [ -n "$out" ] || out=${what:-ok}
    [ -n "$why" ] && rc=1
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$CLASS" "$([ $rc = 0 ] && echo ok || echo FAIL)" "$K" "$what" \
        "$out" "$why" $(( $(now_ms) - T0 )) >>"$W/tally"
    DONE=$((DONE + 1))
    if [ $rc = 0 ]; then [ -n "$VERBOSE" ] && echo "ok trial $K ($CLASS, $what): $out"
    else echo "FAIL trial $K ($CLASS, $what): $why"; fi
    [ $((DONE % 50)) = 0 ] && echo "safety: $DONE trials done, $(grep -c $'\tFAIL\t' "$W/tally") failed, $(( $(date +%s) - START )) s"
    [ -n "$ONLY" ] && break
done
echo "safety: $DONE trials in $(( $(date +%s) - START )) s"
summary
! grep -q $'\tFAIL\t' "$W/tally"
