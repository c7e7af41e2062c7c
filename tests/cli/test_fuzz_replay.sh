#!/bin/bash
# Every fuzz harness (tests/fuzz/) run over its seed corpus and over its regression
# inputs (crashes the fuzzer once found, tests/fuzz/regress/NAME/) without libFuzzer:
# the harnesses keep building, and no input that once crashed crashes again.
. "$(dirname "$0")/lib.sh"
B=$(dirname "$SB_BIN")  # the build directory ($SB is a wrapper in $T)
for name in import resultfile scenario options dbench_loadfile iolog blktrace; do
    bin=$B/fuzz/replay_$name
    if [ ! -x "$bin" ]; then not_ok "fuzz replay $name: $bin not built"; continue; fi
    # shellcheck disable=SC2046
    check_exit "fuzz replay $name: seeds and regression inputs" 0 \
        "$bin" $(sh "$SRC/tests/fuzz/seeds.sh" "$SRC" "$name") "$SRC/tests/fuzz/regress/$name"
    check "fuzz replay $name: replayed some inputs" grep -q "replayed [1-9]" "$T/out"
done
finish
