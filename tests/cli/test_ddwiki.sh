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

# ---- import of seed 004: 15 machines, 45 figures equal to the page's ----
R="$T/results"
P004="$SEEDS/004_b63bb00861e0ff85.txt"
check_exit "import seed 004" 0 "$SB" import "$P004" --result wiki --results-dir "$R"
check "import seed 004: 15 systems" grep -q "imported 15 systems and 9 results" "$T/out"
# The page's rates, per heading and test ("7,3 GB/s" read as 7.3) ...
page_rates() {
    LC_ALL=C awk '
        /^ *==/ { h = $0; gsub(/^ *=+ *| *=+ *$/, "", h); next }
        /^(<code>)?(Direct write|Direct read|Read cache):/ {
            l = $0; sub(/<\/code> *$/, "", l)
            t = l ~ /^(<code>)?Direct write/ ? "Direct Write" : l ~ /^(<code>)?Direct read/ ? "Direct Read" : "Read Cache"
            n = split(l, a, ", "); r = a[n]; gsub(/,/, ".", r)
            print h "\t" t "\t" r
        }' "$1" | sort
}
# ... and the imported figures, formatted as dd formats a rate (three digits, SI prefix).
imported_rates() {
    LC_ALL=C awk -F, 'NR > 1 && $(NF-13) == "result" {
            id = $5; for (i = 6; i <= NF - 14; i++) id = id "," $i
            gsub(/^"|"$/, "", id); t = $4; sub(/.*Test: /, "", t)
            v = $(NF-10) * 1e6; split("B/s kB/s MB/s GB/s TB/s", U, " "); u = 1
            while (v >= 1000 && u < 5) { v /= 1000; u++ }
            printf "%s\t%s\t%s %s\n", id, t, (v < 100 ? sprintf("%.1f", v) : sprintf("%.0f", v)), U[u]
        }' | sort
}
page_rates "$P004" >"$T/page.rates"
"$SB" show wiki --format csv --results-dir "$R" | imported_rates >"$T/imported.rates"
check "seed 004: the page has 45 figures" test "$(wc -l <"$T/page.rates")" -eq 45
check "seed 004: the 45 imported figures are the page's" cmp -s "$T/page.rates" "$T/imported.rates"
check "seed 004: three charts of the 13 machines at 1 GiB" \
    test "$("$SB" show wiki --results-dir "$R" | grep -c '^Block Size: 2048k - Count: 512 - Data: Zeros - Test: ')" -eq 3
check_exit "import seed 004 --verbose" 0 "$SB" import "$P004" --result wiki2 --results-dir "$R" --verbose
check "--verbose: the example is skipped" grep -q "^line 4: 'Direct Write Test, simple benchmark with dd': 3 dd lines .*skipped" "$T/out"
check "--verbose: a line per machine" test "$(grep -c "^line [0-9]*: '.*': Direct Write" "$T/out")" -eq 15
check_exit "import seed 004 again refused" 1 "$SB" import "$P004" --result wiki --results-dir "$R"
check_one_line "import again: one line" "already"
check_exit "import seed 004 --format dd-wiki" 0 "$SB" import "$P004" --result wiki3 --format dd-wiki --results-dir "$R"
check_exit "seed 004 --format text" 1 "$SB" import "$P004" --result bad --format text --results-dir "$R"
check_one_line "seed 004 --format text: one line" "not a result page"
check_exit "seed 001 --format dd-wiki" 1 "$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result bad --format dd-wiki --results-dir "$R"
check_one_line "seed 001 --format dd-wiki: one line" "not a dd wiki page"
check_exit "text page --verbose" 0 "$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result s1 --verbose --results-dir "$R"
check "text page --verbose: each identifier's figures" grep -q "^'2-Disk RAID1 + LZO': 12 figures$" "$T/out"
check_exit "--format bogus" 2 "$SB" import "$P004" --result bad --format html --results-dir "$R"
check_one_line "--format bogus: one line" "auto, text, dd-wiki or pts-xml"
check "refusals created nothing" test ! -e "$R/bad.json"

# ---- a damaged block is refused with its line, and nothing is written ----
sed '47s/3\.0 GB\/s/3.5 GB\/s/' "$P004" >"$T/damaged.txt"
check_exit "damaged rate refused" 1 "$SB" import "$T/damaged.txt" --result dmg --results-dir "$R"
check_one_line "damaged rate: one line with its line number" "damaged.txt: line 47: Read cache: .* not the printed 3.5 GB/s"
sed '110d' "$P004" >"$T/damaged.txt"
check_exit "missing line refused" 1 "$SB" import "$T/damaged.txt" --result dmg --results-dir "$R"
check_one_line "missing line: names the block's heading line" "line 108: the block of 'Proliant DL320e G8 hardware raid .* has no 'Direct read:' line"
check "damaged pages created nothing" test ! -e "$R/dmg.json"

# ---- the --wiki block reads back to the same figures, and run dd joins its charts ----
check_exit "import the --wiki block" 0 "$SB" import "$T/block.txt" --result own --results-dir "$R"
check "--wiki block: one system, three results" grep -q "imported 1 systems and 3 results" "$T/out"
"$SB" show own --format csv --results-dir "$R" >"$T/own.csv"
# bytes / seconds of each printed line, in MB/s to two decimals, against the stored figure
LC_ALL=C awk '{ for (i = 1; i <= NF; i++) if ($i == "bytes") b = $(i-1); else if ($i == "s,") printf "%.2f\n", b / $(i-1) / 1e6 }' \
    "$T/block.txt" >"$T/own.want"
awk -F, '$(NF-13) == "result" { printf "%.2f\n", $(NF-10) }' "$T/own.csv" >"$T/own.got"
check "--wiki block: three figures read back" test "$(wc -l <"$T/own.got")" -eq 3
check "--wiki block: the figures are bytes / seconds of its lines" cmp -s "$T/own.want" "$T/own.got"
check_exit "run dd at the block's size" 0 "$SB" run dd --target "$T/target" --result own -i "measured here" \
    -o count=2 -n 1 --exact-runs --results-dir "$R"
"$SB" show own --format json --results-dir "$R" >"$T/own.json"
check "run dd joins the imported charts (3 results)" test "$(grep -c '"test": "dd"' "$T/own.json")" -eq 3
check "each chart has the imported and the measured figure" \
    test "$("$SB" show own --results-dir "$R" | grep -Ec '^(Test box / loop ext4, 2 MiB|measured here) \[[12]\] \.')" -eq 6
check_exit "show of the wiki page itself" 1 "$SB" show "$P004"
check "show of the wiki page points to import" grep -q "storbench import" "$T/err"

finish
