#!/bin/bash
# CLI tests of the cdm test (CrystalDiskMark/KDiskMark's set): a tiny read and write
# cell of one test records MB/s with IOPS, p99 and a time series, `run` prints the
# 4x2 table (cells not run show '-'), the suite lists its eight cells, bad options are
# refused with one line.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }
D="$T/target"
mkdir -p "$D"
tiny="diskmark:size=8m,loops=2,measure=300ms,interval=100ms"

check_exit "run diskmark: RND4K Q1T1 read, tiny" 0 "$SB" run diskmark --target "$D" --result "$T/c.json" \
    --identifier here --runs 1 --exact-runs -o "$tiny,test=rnd4k-q1t1,mode=read" --no-drop-caches
cp "$T/out" "$T/run1.txt"
check "the table's header" grep -q '^here: MB/s \[IOPS, p99 latency\]' "$T/run1.txt"
check "the table's four rows" test "$(grep -cE '^(SEQ1M Q8T1|SEQ1M Q1T1|RND4K Q32T1|RND4K Q1T1) ' "$T/run1.txt")" -eq 4
check "the measured cell" grep -Eq '^RND4K Q1T1 +[0-9]+\.[0-9]{2} \[[0-9]+ IOPS, p99 [0-9.]+ (us|ms)\] +-' "$T/run1.txt"
check "cells not run are '-'" grep -Eq '^SEQ1M Q8T1 +- +-$' "$T/run1.txt"
# the tiny run's hidden options, away from their defaults, are named (docs/result-format.md)
check "option line" jqok '.results[0].description == "Test: RND4K Q1T1 - Mode: Read (size=8m, loops=2, measure=300ms, interval=100ms)"' "$T/c.json"
check "MB/s with IOPS, p99 and loops" jqok '.results[0].unit == "MB/s" and ([.results[0].entries[0].secondary[].name] | index("iops") != null and index("lat_p99") != null and index("loops") != null)' "$T/c.json"
check "a time series of both loops" jqok '(.results[0].entries[0].series.t | length) >= 1' "$T/c.json"
check "no files left" test "$(ls -A "$D" | wc -l)" -eq 0

# the suite: all eight cells, tiny, one run each
check_exit "run cdm (the suite), tiny" 0 "$SB" run cdm --target "$D" --result "$T/s.json" --identifier all \
    --runs 1 --exact-runs -o "diskmark:size=8m,loops=1,measure=200ms,interval=0" --no-drop-caches
check "the suite ran eight cells" jqok '(.results | length) == 8' "$T/s.json"
check "every cell of the table filled" test "$(grep -cE '^(SEQ1M Q8T1|SEQ1M Q1T1|RND4K Q32T1|RND4K Q1T1) +[0-9]+\.[0-9]{2} \[.*\] +[0-9]+\.[0-9]{2} \[' "$T/out")" -eq 4
check_exit "bad loops refused" 2 "$SB" run diskmark --target "$D" -o diskmark:loops=0
check_one_line "names loops" "loops"
check_exit "bad test refused" 2 "$SB" run diskmark --target "$D" -o diskmark:test=seq2m
check_one_line "names the choices" "seq1m-q8t1"
finish
