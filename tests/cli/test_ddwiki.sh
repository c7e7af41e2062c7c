#!/bin/bash
# The dd wiki page (seed 004) end to end: `storbench dd --wiki` prints a block in the
# page's form; `storbench import` reads seed 004 (15 machines, 45 figures), refuses a
# damaged block with its line, reads a --wiki block back, and a `run dd` at the page's
# size joins the imported charts.
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/target"

# ---- dd --wiki: the block, in the page's form ----
check_exit "dd --wiki" 0 "$SB" dd "$T/target" --count 2 --wiki "Test box / loop ext4, 2 MiB"
cp "$T/out" "$T/block.txt"
line='[0-9]+ bytes \([0-9.]+ [kMG]B, [0-9.]+ [KMG]iB\) copied, [0-9.e-]+ s, [0-9.]+ [kMGT]?B/s'
check "dd --wiki: five lines" test "$(wc -l <"$T/block.txt")" -eq 5
check "dd --wiki: heading" test "$(sed -n 1p "$T/block.txt")" = "==== Test box / loop ext4, 2 MiB ===="
check "dd --wiki: <code> opens the first line" grep -Eq "^<code>Direct write: $line\$" "$T/block.txt"
check "dd --wiki: direct read" grep -Eq "^Direct read:  $line\$" "$T/block.txt"
check "dd --wiki: read cache" grep -Eq "^Read cache:   $line\$" "$T/block.txt"
check "dd --wiki: </code> closes" test "$(sed -n 5p "$T/block.txt")" = "</code>"
check "dd --wiki leaves nothing behind" test "$(ls -A "$T/target" | wc -l)" -eq 0
check_exit "dd --wiki empty" 2 "$SB" dd "$T/target" --wiki ""
check_one_line "dd --wiki empty: one line" "is empty"
check_exit "dd --wiki heading markup" 2 "$SB" dd "$T/target" --wiki "== x =="
check_one_line "dd --wiki heading markup: one line" "'='"
check_exit "dd --wiki two lines" 2 "$SB" dd "$T/target" --wiki "$(printf 'a\nb')"
check_one_line "dd --wiki two lines: one line" "control character"
check_exit "dd --wiki other bs" 2 "$SB" dd "$T/target" --wiki x --bs 1M
check_one_line "dd --wiki other bs: one line" "bs=2048k"
check_exit "dd --wiki random data" 2 "$SB" dd "$T/target" --wiki x --data random
check_one_line "dd --wiki random data: one line" "zeros"
check_exit "dd --wiki no value" 2 "$SB" dd "$T/target" --wiki
check_one_line "dd --wiki no value: one line" "needs a value"

finish
