#!/bin/sh
# Runs each libFuzzer harness for SECONDS: `sh tests/fuzz/run.sh BUILD SECONDS NAME...`
# (what `make fuzz FUZZ_SECONDS=N` does). Each harness starts from its seed corpus
# (tests/fuzz/seeds.sh lists where the seeds come from in tests/data), keeps what it
# finds in BUILD/corpus/NAME across runs, and writes a crashing input to
# BUILD/crashes/NAME-crash-*: copy it to tests/fuzz/regress/NAME/ and fix the bug, so
# that `make check` replays it from then on. Prints the executions of each harness
# and the total; exits 1 when any harness found a crash, a leak or a hang.
set -u
build=$1; seconds=$2; shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build/crashes"
total=0; failed=""
for name in "$@"; do
    corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    log="$build/fuzz-$name.log"
    # -timeout: an input taking 10 s is a hang; -rss_limit_mb: a parser must not balloon.
    nice -n 19 "$build/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
        -print_final_stats=1 -artifact_prefix="$build/crashes/$name-" \
        "$corpus" $(sh "$src/tests/fuzz/seeds.sh" "$src" "$name") "$src/tests/fuzz/regress/$name" \
        >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=${execs:-0}
    total=$((total + execs))
    if [ "$rc" -ne 0 ]; then
        failed="$failed $name"
        echo "fuzz $name: FAILED after $execs executions (exit $rc); see $log and $build/crashes/"
        grep -m3 -E 'ERROR|SUMMARY|Test unit written' "$log" | sed 's/^/    /'
    else
        echo "fuzz $name: $execs executions in ${seconds} s, no finding"
    fi
done
echo "fuzz total: $total executions"
[ -z "$failed" ]
