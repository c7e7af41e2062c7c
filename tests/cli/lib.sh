# Helpers for CLI tests: each test script sources this, runs the built binary
# ($SB) in a private scratch area and reports each check as a TAP-like line
# "ok NAME" / "not ok NAME". Scratch files are removed on exit.
set -u
SB_BIN=${STORBENCH_BIN:?run through make check}
SRC=${STORBENCH_SRC:-.}
SEEDS=$SRC/tests/data/seeds
T=$(mktemp -d /var/tmp/sbtest.XXXXXX)
export XDG_DATA_HOME="$T/xdg"
trap 'rm -rf "$T"' EXIT
# $SB is the binary behind a wrapper that adds --no-drop-caches to `run`, `sweep` and
# `scenario run`. Why: as root each run would begin with sync() and a drop of
# the whole machine's page cache (tests/cli/test_titles.sh alone did it 6
# times), which disturbs any measurement running beside `make check`
# (docs/fidelity.md, "Counted"); no test measures, so none needs it. The
# wrapper execs: the process, its pid and its signals are storbench's.
SB=$T/storbench
printf '%s\n' '#!/bin/sh' \
    'case "$1" in' \
    "run) shift; exec '$SB_BIN' run --no-drop-caches \"\$@\" ;;" \
    "sweep) shift; exec '$SB_BIN' sweep --no-drop-caches \"\$@\" ;;" \
    "scenario) [ \"\$2\" = run ] && shift 2 && exec '$SB_BIN' scenario run --no-drop-caches \"\$@\" ;;" \
    'esac' "exec '$SB_BIN' \"\$@\"" >"$SB"
chmod +x "$SB"
_failures=0

ok()     { echo "ok $*"; }
not_ok() { echo "not ok $*"; _failures=$((_failures + 1)); }

# check NAME COMMAND... : passes when the command exits 0.
check() { local n=$1; shift; if "$@"; then ok "$n"; else not_ok "$n"; fi; }
# check_exit NAME CODE COMMAND... : passes when the command exits with CODE;
# its stdout/stderr are left in $T/out and $T/err.
check_exit() {
    local n=$1 want=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; local rc=$?
    if [ "$rc" -eq "$want" ]; then ok "$n"; else not_ok "$n (exit $rc, wanted $want: $(head -c 300 "$T/err"))"; fi
}
# One line on stderr, mentioning WORD.
check_one_line() {
    local n=$1 word=$2
    if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qi -- "$word" "$T/err"; then ok "$n"; else not_ok "$n (stderr: $(head -c 300 "$T/err"))"; fi
}
# fio_scratch [BYTES]: for a script that compares with fio 3.33: have_fio=1 when fio and
# jq are here, else 0 and one visible skip line (the script's own checks still run); the
# working directory is the scratch, where fio-style output files land; F=$T/f, a file of
# BYTES zeros when BYTES is given.
fio_scratch() {
    have_fio=0
    command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1
    [ $have_fio = 1 ] || echo "ok # SKIP the comparisons with fio: fio or jq missing"
    cd "$T" || exit 1
    F=$T/f
    [ -z "${1:-}" ] || head -c "$1" /dev/zero >"$F"
}
finish() { exit $((_failures > 0)); }
# flip_byte FILE OFFSET: invert every bit of one byte, so the byte always changes (writing a
# fixed value does nothing when the byte already holds it: a checksum's byte, 1 in 256 runs)
flip_byte() {
    local b; b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "\\x$(printf %02x $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# A guest test's preconditions: not under ASan (the guest runs this binary), and QEMU,
# a static busybox and jq (scripts/bootstrap installs them); else one skip line and exit.
need_guest() {
    case "$SB" in *asan*) ok "$1 # skip: not under ASan (the guest runs this binary)"; finish ;; esac
    if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ] || ! command -v jq >/dev/null; then
        ok "$1 # skip: needs qemu-system-x86, busybox-static, jq (scripts/bootstrap)"
        finish
    fi
}
