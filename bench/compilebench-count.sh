#!/bin/bash
# bench/compilebench-count.sh — where a Compile Bench tree's time goes, for
# compilebench (the reference) and storbench's compilebench:test=initial-create,
# on one target: per tree, the wall seconds, the CPU seconds (user, system), the
# seconds runnable but waiting for a CPU (run queue), the rest (off a CPU and not
# runnable: waiting for the disk or a lock), and the device's sectors written.
# docs/fidelity.md ("Compile Bench", "Where the time goes") explains the model.
#
#   bench/compilebench-count.sh [--tsv FILE] [--only ref|sb] TARGET [ROUNDS]    # ROUNDS default 2
#
# Needs COMPILEBENCH=/path/to/compilebench (its data set files beside it; not in
# Debian, docs/fidelity.md says how to fetch it). CB_TREES (default 10) trees
# per run. The reference is counted from its own lines on stderr: at its last
# set-up line ("native patched compiled ...") and at each "create dir kernel-N"
# line the script notes the time and reads the process's /proc/PID/stat (utime,
# stime: 10 ms ticks), /proc/PID/schedstat (run queue, ns) and the target
# device's /sys/block/DEV/stat; the N trees are the interval from the first to
# the last of those lines, divided by N. (That interval also holds the removal of
# compilebench's last set-up tree, 2,726 inodes, printed after its line: about
# 0.1 s, 0.01 s per tree.) storbench reports the same per tree itself (its
# secondary figures user_seconds, sys_seconds, runq_seconds) over its N trees
# (its set-up, the same three trees, is before the first); its device writes are
# those of the whole run divided by N (its trees are removed, untimed, at the
# end, which writes little: deleted dirty pages are never written). Rounds
# alternate which tool runs first; `sync` before each run. --only runs one tool
# (for a fresh file system per run: docs/fidelity.md). Free page reporting is
# held off and free memory touched first (bench/lib.sh, lib_prefault_memory):
# both tools copy every byte into new page-cache pages, whose first touch in
# this virtual machine otherwise lands in their system time.
# Output: one line per run ("tool wall user sys runq other sectors"), and the
# means. Exit 2 on bad arguments, 1 when something fails; Ctrl-C: 130.
set -u
LIB_NAME=compilebench-count
. "$(dirname "$0")/lib.sh"

usage() { echo "$LIB_NAME: $*" >&2; echo "usage: $0 [--tsv FILE] [--only ref|sb] TARGET [ROUNDS]" >&2; exit 2; }
TSV="" ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --tsv) [ $# -ge 2 ] || usage "--tsv needs a file"; TSV=$2; shift 2 ;;
        --only) [ "${2:-}" = ref ] || [ "${2:-}" = sb ] || usage "--only takes ref or sb"; ONLY=$2; shift 2 ;;
        -*) usage "unknown option $1" ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage "one TARGET and at most ROUNDS"
TARGET=$1 ROUNDS=${2:-2} TREES=${CB_TREES:-10}
[[ "$ROUNDS" =~ ^[1-9][0-9]?$ ]] || usage "ROUNDS must be 1..99"
[[ "$TREES" =~ ^[2-9]$|^[1-9][0-9]$ ]] || usage "CB_TREES must be 2..99"
[ -d "$TARGET" ] && [ -w "$TARGET" ] || usage "$TARGET: not a writable directory"
CB=${COMPILEBENCH:-}
[ -n "$CB" ] && [ -r "$CB" ] || lib_die "set COMPILEBENCH=/path/to/compilebench (docs/fidelity.md)"
[ -x "$SB" ] || lib_die "no storbench binary at $SB"
command -v jq >/dev/null || lib_die "needs jq"

# The target's block device (none on tmpfs): its stat's field 7 is sectors written.
DEVSTAT=/dev/null
src=$(findmnt -no SOURCE -T "$TARGET" 2>/dev/null)
dev=$(basename "$(readlink -f "$src" 2>/dev/null)")
[ -n "$dev" ] && [ -r "/sys/class/block/$dev/stat" ] && DEVSTAT=/sys/class/block/$dev/stat
sectors() { local a; read -r -a a <"$DEVSTAT" 2>/dev/null && echo "${a[6]}" || echo 0; }

LIB_WORK=$(mktemp -d "$TARGET/cbcount.XXXXXX") || lib_die "cannot make a directory in $TARGET"
trap lib_cleanup EXIT
trap 'exit 130' INT TERM HUP
lib_prefault_memory
OUT=$LIB_WORK/all

# ref_counted: compilebench -i TREES -r 0 in a session of its own; its stderr
# goes through a reader that samples the process at the last set-up line and at
# each tree's line. Appends "ref wall user sys runq other sectors" (per tree) to $OUT.
ref_counted() {
    local line a c w rest
    rm -f "$LIB_WORK/ref.lines"
    setsid python3 "$CB" -D "$LIB_WORK/t" -i "$TREES" -r 0 -s "$(dirname "$CB")" \
        2> >(while IFS= read -r line; do
                 case "$line" in "create dir kernel-"* | "native patched compiled "*) ;; *) continue ;; esac
                 read -r -a a <"/proc/$(cat "$LIB_WORK/pid")/stat"
                 read -r c w rest <"/proc/$(cat "$LIB_WORK/pid")/schedstat"
                 echo "$EPOCHREALTIME ${a[13]} ${a[14]} $w $(sectors)"
             done >>"$LIB_WORK/ref.lines") >"$LIB_WORK/ref.out" </dev/null &
    LIB_CHILD=$!
    echo "$LIB_CHILD" >"$LIB_WORK/pid"
    wait "$LIB_CHILD" || lib_die "compilebench failed: $(tail -2 "$LIB_WORK/ref.out")"
    LIB_CHILD=""
    sleep 0.5   # the reader's last line
    rm -rf "$LIB_WORK/t"
    # A line: seconds utime stime runq-ns sectors; the first is the set-up's end.
    awk -v n="$TREES" '{ t[NR] = $1; u[NR] = $2; k[NR] = $3; q[NR] = $4; s[NR] = $5 }
        END { if (NR < n + 1) exit 1; m = NR
              ws = (t[m] - t[1]) / n; du = (u[m] - u[1]) / 100 / n; dk = (k[m] - k[1]) / 100 / n
              dq = (q[m] - q[1]) / 1e9 / n
              printf "ref %.3f %.3f %.3f %.3f %.3f %.0f\n", ws, du, dk, dq, ws - du - dk - dq, (s[m] - s[1]) / n }' \
        "$LIB_WORK/ref.lines" >"$LIB_WORK/line" || lib_die "compilebench printed fewer than $TREES tree lines"
}

# sb_counted: storbench's own per-tree figures; device writes of the whole run / N.
sb_counted() {
    local s0 s1
    s0=$(sectors)
    sb_run "$LIB_WORK/sb" "compilebench:test=initial-create,trees=$TREES" ||
        lib_die "storbench failed: $(tail -2 "$LIB_WORK/sb.log")"
    s1=$(sectors)
    awk -v w="$(sb_secondary seconds)" -v u="$(sb_secondary user_seconds)" -v k="$(sb_secondary sys_seconds)" \
        -v q="$(sb_secondary runq_seconds)" -v s=$((s1 - s0)) -v n="$TREES" \
        'BEGIN { printf "sb %.3f %.3f %.3f %.3f %.3f %.0f\n", w, u, k, q, w - u - k - q, s / n }' >"$LIB_WORK/line"
}

echo "# compilebench-count: $TARGET ($(findmnt -no FSTYPE,SOURCE -T "$TARGET" | head -1 | tr -s " ")), $ROUNDS round(s), $TREES trees, $(date -u '+%Y-%m-%d %H:%M UTC'), storbench $("$SB" --version | awk '{ print $NF }')"
echo "# per tree, seconds: round tool wall user sys runq other(wall-user-sys-runq) device-sectors-written"
: >"$OUT"
for r in $(seq 1 "$ROUNDS"); do
    order="ref sb"
    [ $((r % 2)) = 0 ] && order="sb ref"
    [ -n "$ONLY" ] && order=$ONLY
    for side in $order; do
        sync
        if [ "$side" = ref ]; then ref_counted; else sb_counted; fi
        echo "$r $(cat "$LIB_WORK/line")" | tee -a "$OUT"
    done
done
[ -n "$TSV" ] && cp "$OUT" "$TSV"
awk '{ n[$2]++; for (i = 3; i <= 8; i++) s[$2, i] += $i }
     END { for (t in n) { printf "mean %s", t; for (i = 3; i <= 8; i++) printf " %.3f", s[t, i] / n[t]; print "" } }' \
    "$OUT" | sort
