#!/bin/bash
# Import is linear in the size of the page (issue 11 item 5): a page with 8 times the
# rows (identifiers, each a system, all in one result) and one with 8 times the results
# take well under 8^2 = 64 times the CPU time. The bound (24) leaves room for noise on a
# loaded machine; a quadratic importer is at 50 and more. CPU time, not wall time.
. "$(dirname "$0")/lib.sh"

# rows N: one result with N identifiers, values 1..3 with matching bars.
rows_page() {
    awk -v n="$1" 'BEGIN { print "Title"; print "Desc"; print ""; print "";
        print "R 1.0"; print "Opts"; print "MB/s > Higher Is Better";
        for (i = 0; i < n; i++) { v = 1 + i % 3; b = ""; for (k = 0; k < v; k++) b = b "=";
            printf "Sys %06d ..... %d.00 |%s\n", i, v, b } }'
}
# results N: one identifier, N results with distinct option lines.
results_page() {
    awk -v n="$1" 'BEGIN { print "Title"; print "Desc"; print ""; print "";
        print "Box:"; print "\tProcessor: P"; print "\tOS: O"; print ""; print "";
        for (i = 0; i < n; i++) { printf "R 1.0\nPass: %d\nMB/s > Higher Is Better\nBox ..... 5.00 |===\n\n\n", i } }'
}
cpu() { # user+system CPU milliseconds of one import
    local TIMEFORMAT='%3U %3S' t
    t=$( { time "$SB" import "$1" --result "$2" --results-dir "$T/r" >/dev/null 2>"$T/err"; } 2>&1 ) ||
        { echo fail; return; }
    echo "$t" | awk '{ printf "%d\n", ($1 + $2) * 1000 }'
}
for kind in rows results; do
    ${kind}_page 3000 >"$T/small.txt"
    ${kind}_page 24000 >"$T/large.txt"
    small=$(cpu "$T/small.txt" "s-$kind")
    large=$(cpu "$T/large.txt" "l-$kind")
    if [ "$small" = fail ] || [ "$large" = fail ]; then not_ok "$kind: import failed: $(head -c 200 "$T/err")"; continue; fi
    [ "$small" -lt 5 ] && small=5 # below the clock's resolution
    ratio=$((large / small))
    echo "# $kind: 3000 -> $small ms, 24000 -> $large ms, ratio $ratio"
    if [ "$ratio" -lt 24 ]; then ok "$kind: 8x the page, ${ratio}x the CPU time (linear)"; else not_ok "$kind: 8x the page, ${ratio}x the CPU time"; fi
done
finish
