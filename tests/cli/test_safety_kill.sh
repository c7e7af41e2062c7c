#!/bin/bash
# SIGKILL safety (issue 24, items 5, 10 and 13): what a killed run leaves must
# neither hang the machine nor stay behind.
#   - `run durability` killed while it records (its writer in the middle of fsyncs
#     on a filesystem over the FUSE recorder) and while it replays power cuts: the
#     run exits at once (no task of it left in D state) and its guardian takes
#     apart the mounts, loop devices and directory; killed together with its
#     guardian, the next run removes what they left and says so in one line.
#   - pgbench killed on a target whose path is too long for a socket: the next
#     run removes the socket directory in /tmp that the killed one left; initdb on
#     a disk that fills up says No space left on device.
#   - `scenario run` killed: the next run removes the old image, mount and journal
#     and says so.
# Every wait is bounded; whatever a failing check leaves is aborted, unmounted and
# detached on exit, so that a failure cannot leave the machine's writeback hung.
# Parts that need root, loop devices, FUSE, mkfs or PostgreSQL are skipped visibly.
. "$(dirname "$0")/lib.sh"
export STORBENCH_STATE_DIR="$T/state"
chmod 711 "$T" # the PostgreSQL server user must pass through

# Aborts the FUSE connections of our mounts: nothing waits on them any more.
abort_ours() {
    if [ -d /sys/fs/fuse/connections ] && ! findmnt -rn /sys/fs/fuse/connections >/dev/null; then
        mount -t fusectl none /sys/fs/fuse/connections 2>/dev/null
    fi
    findmnt -rn -o MAJ:MIN,FSTYPE,TARGET 2>/dev/null | awk -v t="$T/" 'index($3, t) == 1 && $2 ~ /^fuse/ {sub(/.*:/, "", $1); print $1}' |
        while read -r m; do echo 1 >"/sys/fs/fuse/connections/$m/abort" 2>/dev/null; done
}
# Whatever a failing check left: aborted, unmounted, detached, removed.
rescue() {
    abort_ours
    for m in $(findmnt -rn -o TARGET 2>/dev/null | grep "^$T/" | sort -r); do umount -l "$m" 2>/dev/null; done
    for l in $(losetup -n -O NAME,BACK-FILE 2>/dev/null | awk -v t="$T/" 'index($2, t) == 1 {print $1}'); do
        losetup -d "$l" 2>/dev/null
    done
    [ -n "${FULL:-}" ] && umount -l "$FULL" 2>/dev/null
    rm -rf "$T"
}
trap rescue EXIT

# Waits up to $2 tenths of a second for process $1 to be gone.
wait_gone() {
    local i=0
    while [ -n "$1" ] && kill -0 "$1" 2>/dev/null; do
        [ $i -ge "$2" ] && return 1
        sleep 0.1; i=$((i + 1))
    done
    return 0
}
# Waits up to $2 tenths of a second for command $1 to succeed.
wait_until() {
    local i=0
    until eval "$1"; do
        [ $i -ge "$2" ] && return 1
        sleep 0.1; i=$((i + 1))
    done
}
# The same, polling every hundredth of a second: to kill at a moment that lasts little.
wait_fast() {
    local i=0
    until eval "$1"; do
        [ $i -ge "$2" ] && return 1
        sleep 0.01; i=$((i + 1))
    done
}
# Tasks of process $1 in D state (uninterruptible), as "tid:wchan" words.
d_tasks() {
    local s
    for s in /proc/"$1"/task/*/stat; do
        [ -r "$s" ] || continue
        [ "$(awk '{print $3}' "$s" 2>/dev/null)" = D ] && echo "$(basename "$(dirname "$s")"):$(cat "$(dirname "$s")/wchan" 2>/dev/null)"
    done
}
mounts_in() { findmnt -rn -o TARGET | grep "^$1/"; }
loops_in() { losetup -n -O NAME,BACK-FILE 2>/dev/null | awk -v t="$1/" 'index($2, t) == 1 {print $1}'; }
# Nothing of ours in $1: no mount, no loop device, no run directory, no durability journal.
nothing_left() {
    local what=$1 dir=$2 m l
    m=$(mounts_in "$dir"); l=$(loops_in "$dir")
    if [ -z "$m" ]; then ok "$what: nothing mounted"; else not_ok "$what: nothing mounted ($m)"; fi
    if [ -z "$l" ]; then ok "$what: no loop device"; else not_ok "$what: no loop device ($l)"; fi
    if [ -z "$(ls -A "$dir")" ]; then ok "$what: target empty"; else not_ok "$what: target empty ($(ls -A "$dir"))"; fi
    if ! ls "$STORBENCH_STATE_DIR"/durability-* >/dev/null 2>&1; then ok "$what: no journal"; else not_ok "$what: no journal ($(ls -A "$STORBENCH_STATE_DIR"))"; fi
}
# The killed process $2 is gone within 20 s, no task of it or of guardian $3 in D state.
check_no_hang() {
    local what=$1 pid=$2 g=${3:-} d
    if wait_gone "$pid" 200; then
        ok "$what: the run exited"
    else
        not_ok "$what: the run exited (still there; in D state: $(d_tasks "$pid"))"
        abort_ours # so that the machine's writeback does not wait with it
        wait_gone "$pid" 100
    fi
    # a hang stays in D state; a task writing its last data out passes through it (on a
    # loaded machine for a while): D in every sample over 3 s is the hang
    local i
    for i in $(seq 30); do
        d="$(d_tasks "$pid") $( [ -n "$g" ] && d_tasks "$g")"
        [ -z "${d// /}" ] && break
        sleep 0.1
    done
    if [ -z "${d// /}" ]; then ok "$what: no task in D state"; else not_ok "$what: no task in D state ($d)"; fi
}

# ---- durability ----
D=$T/dur
mkdir -p "$D"
DUR="durability:fs=ext4,writes=400,cuts=40 --runs 1 --exact-runs -t $D -r dk"
recording() { mounts_in "$D" | grep -q '/recorder$' && mounts_in "$D" | grep -q '/mnt$'; }
replaying() { ! mounts_in "$D" | grep -q '/recorder$' && mounts_in "$D" | grep -q '/mnt$'; }
guardian_of() { awk -F'\t' '$1 == "guardian" {print $2}' "$STORBENCH_STATE_DIR"/durability-"$1"-*.state 2>/dev/null; }

# kill_dur NAME WHEN WHOM: a run, killed (WHOM: run or both) once WHEN holds. Sets P, G.
# A moment that lasts little (the replay of a quick machine) may pass between two polls:
# then the run is tried again with more cuts (a longer replay), up to three times.
kill_dur() {
    local name=$1 when=$2 whom=$3 try cuts
    for try in 1 2 3; do
        cuts=$((40 * try * try))
        "$SB" run ${DUR/cuts=40/cuts=$cuts} -i "$name-$try" >"$T/$name.out" 2>"$T/$name.err" &
        P=$!
        G=
        if wait_fast "$when || ! kill -0 $P 2>/dev/null" 3000 && kill -0 "$P" 2>/dev/null; then
            break
        fi
        kill -9 "$P" 2>/dev/null; wait "$P" 2>/dev/null
        if [ "$try" = 3 ]; then
            not_ok "$name: the run reached the point to kill it at, in 3 tries ($(head -c 300 "$T/$name.err"))"
            return 1
        fi
    done
    G=$(guardian_of "$P")
    if [ "$whom" = both ]; then kill -9 "$P" $G; else kill -9 "$P"; fi
    return 0
}

if [ "$(id -u)" = 0 ] && [ -w /dev/loop-control ] && [ -w /dev/fuse ] && command -v mkfs.ext4 >/dev/null; then
    # The run alone, while it records: its guardian takes everything apart.
    if kill_dur k1 recording run; then
        check_no_hang "kill while recording" "$P" "$G"
        wait "$P" 2>/dev/null
        if [ -n "$G" ]; then ok "kill while recording: a guardian was journaled"; else not_ok "kill while recording: a guardian was journaled"; fi
        if wait_gone "$G" 200; then ok "kill while recording: the guardian finished"; else not_ok "kill while recording: the guardian finished"; fi
        nothing_left "kill while recording, after the guardian" "$D"
    fi

    # The run alone, while it replays power cuts (an ext4 mount over a loop of a cut image).
    if kill_dur k2 replaying run; then
        check_no_hang "kill while replaying" "$P" "$G"
        wait "$P" 2>/dev/null
        wait_gone "$G" 200
        nothing_left "kill while replaying, after the guardian" "$D"
    fi

    # The run and its guardian together: the next run removes what they left, and says so.
    if kill_dur k3 recording both; then
        check_no_hang "kill of run and guardian" "$P" "$G"
        wait "$P" 2>/dev/null
        wait_gone "$G" 200
        killed=$P
        left=$(mounts_in "$D")
        check_exit "the next run after a kill of both" 0 timeout 120 "$SB" run durability:fs=ext4,writes=20,cuts=2 \
            --runs 1 --exact-runs -t "$D" -r dk -i next
        # (the kill may come as the recording ends: then only the directory and journal are left)
        if [ -n "$left" ]; then want="removed what a killed run (pid $killed) left: 1 mount, 1 FUSE mount"
        else want="a killed run (pid $killed)"; fi
        if grep -q "$want" "$T/err"; then
            ok "the next run says what it removed"
        else
            not_ok "the next run says what it removed (wanted '$want': $(head -c 300 "$T/err"))"
        fi
        nothing_left "kill of both, after the next run" "$D"
    fi
else
    echo "ok durability kills skipped: needs root, loop devices, FUSE and mkfs.ext4 # SKIP"
fi

# ---- pgbench ----
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -n "$PGBIN" ] && [ -x "$PGBIN/postgres" ] && [ "$(id -u)" = 0 ]; then
    # A target whose path is too long for the server's socket (sun_path): it goes in /tmp.
    L=$T/pg/$(printf 'long%.0s' $(seq 1 24))
    mkdir -p "$L"; chmod 711 "$T/pg" "$L"
    before=$(ls -d /tmp/storbench-pg-* 2>/dev/null | sort)
    new_sockdir() { comm -13 <(echo "$before") <(ls -d /tmp/storbench-pg-* 2>/dev/null | sort) | head -1; }
    "$SB" run pgbench -q -o duration=60 -n 1 --exact-runs -t "$L" >"$T/pg.out" 2>"$T/pg.err" &
    P=$!
    if wait_until '[ -n "$(new_sockdir)" ] && [ -S "$(new_sockdir)/.s.PGSQL.5432" ]' 600; then
        S=$(new_sockdir)
        ok "pgbench: its socket is in $S"
        kill -9 "$P"; wait "$P" 2>/dev/null
        # the server goes with it (SIGQUIT as its death signal): then its socket
        wait_until '[ ! -e "$S/.s.PGSQL.5432" ]' 100
        check "pgbench: the killed run left its socket directory" test -d "$S"
        check_exit "pgbench: the next run" 0 timeout 120 "$SB" run pgbench -q -o duration=1 -n 1 --exact-runs -t "$L"
        if [ ! -e "$S" ]; then ok "pgbench: the next run removed the socket directory of the killed one"
        else not_ok "pgbench: the next run removed the socket directory of the killed one ($(ls -ld "$S"))"; fi
        check "pgbench: the next run says so" grep -q "socket director" "$T/err"
        check "pgbench: the target is empty" test -z "$(ls -A "$L")"
    else
        kill -9 "$P" 2>/dev/null; wait "$P" 2>/dev/null
        not_ok "pgbench: the server's socket appeared ($(head -c 300 "$T/pg.err"))"
    fi

    # initdb on a filesystem that fills up under it: the error names the cause.
    FULL=$T/full
    mkdir -p "$FULL"
    if mount -t tmpfs -o size=1200m,mode=0711 tmpfs "$FULL"; then
        fill() {
            local avail
            avail=$(df -B1 --output=avail "$FULL" | tail -1)
            [ "$avail" -gt $((1 << 20)) ] && fallocate -l $((avail - (1 << 20))) "$FULL/filler.0"
            dd if=/dev/zero of="$FULL/filler.1" bs=4k 2>/dev/null
        }
        ( wait_until 'ls -d "$FULL"/storbench-*/pgsql >/dev/null 2>&1' 600 && fill ) &
        FILLER=$!
        check_exit "pgbench: initdb on a disk that fills up fails" 1 timeout 120 "$SB" run pgbench -q -o duration=1 \
            -n 1 --exact-runs -t "$FULL"
        wait "$FILLER"
        check_one_line "pgbench: full disk: one line naming ENOSPC" "No space left on device"
        umount "$FULL"
    fi
else
    echo "ok pgbench kills skipped: needs root and the PostgreSQL server (Debian package postgresql) # SKIP"
fi

# ---- scenario run ----
IMG=$T/img
mkdir -p "$IMG"
if [ "$(id -u)" = 0 ] && [ -w /dev/loop-control ] && command -v mkfs.ext4 >/dev/null; then
    printf '[long]\nfilesystem = ext4\n' >"$T/long.ini"
    "$SB" scenario run "$T/long.ini" --suite dd -o count=64 -o bs=1M -n 50 --exact-runs --result "$T/k.json" \
        --images "$IMG" --image-size 256M >"$T/scn.out" 2>"$T/scn.err" &
    P=$!
    if wait_until 'mounts_in "$IMG" | grep -q storbench-mnt-' 300; then
        kill -9 "$P"; wait "$P" 2>/dev/null
        check "scenario: the killed run left its image" sh -c "ls '$IMG' | grep -q 'storbench-scn-$P-'"
        check_exit "scenario: the next run" 0 timeout 120 "$SB" scenario run "$T/long.ini" --suite dd -o count=4 \
            -o bs=1M -n 1 --exact-runs --result "$T/k2.json" --images "$IMG" --image-size 256M
        check "scenario: the next run says it removed what the killed one left" grep -q "removed what 1 killed run left" "$T/err"
        if [ -z "$(ls -A "$IMG")" ]; then ok "scenario: no image left"; else not_ok "scenario: no image left ($(ls -A "$IMG"))"; fi
        if [ -z "$(mounts_in "$IMG")" ]; then ok "scenario: nothing mounted"; else not_ok "scenario: nothing mounted"; fi
        if [ -z "$(ls -A "$STORBENCH_STATE_DIR" 2>/dev/null)" ]; then ok "scenario: no journal left"
        else not_ok "scenario: no journal left ($(ls -A "$STORBENCH_STATE_DIR"))"; fi
    else
        kill -9 "$P" 2>/dev/null; wait "$P" 2>/dev/null
        not_ok "scenario: the run mounted its configuration ($(head -c 300 "$T/scn.err"))"
    fi
else
    echo "ok scenario kill skipped: needs root, loop devices and mkfs.ext4 # SKIP"
fi
finish
