#!/bin/sh
# Runs every unit test program given as arguments (cmocka) and every CLI test
# script tests/cli/test_*.sh, then prints one closing line "N passed, N failed".
# Exit status is non-zero when anything failed.
# STORBENCH_TESTS=pattern limits the CLI scripts to names matching the pattern.
BUILD=${BUILD:-build}
export STORBENCH_BIN="${STORBENCH_BIN:-$(pwd)/$BUILD/storbench}"
export STORBENCH_SRC="$(pwd)"
passed=0
failed=0
failed_names=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$@"; do
    "$t" >"$log" 2>&1
    rc=$?
    cat "$log"
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p)); failed=$((failed + f))
    [ "$f" -gt 0 ] && failed_names="$failed_names $(basename "$t")"
done

for s in tests/cli/test_*.sh; do
    [ -e "$s" ] || continue
    case "$s" in *"${STORBENCH_TESTS:-}"*) ;; *) continue ;; esac
    echo "== $s"
    t0=$(date +%s)
    bash "$s" >"$log" 2>&1
    rc=$?
    cat "$log"
    # each script's wall time, so that the 15-minute budget of make check can be kept
    echo "# $(basename "$s"): $(($(date +%s) - t0)) s"
    p=$(grep -c '^ok ' "$log")
    f=$(grep -c '^not ok ' "$log")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "not ok $(basename "$s") exited $rc"; f=1
    fi
    passed=$((passed + p)); failed=$((failed + f))
    [ "$f" -gt 0 ] && failed_names="$failed_names $(basename "$s")"
done

[ -n "$failed_names" ] && echo "failing:$failed_names"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
