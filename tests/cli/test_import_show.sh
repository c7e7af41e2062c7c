#!/bin/bash
# import, show and merge end to end: both seed pages imported and shown with
# every row's identifier and value checked in order; seed 001 byte for byte at
# 80 columns; merging and its clashes; and the refusals (a file that is not a
# page, a file that is not a result file, an unknown schema version), none of
# which may touch an existing result file.
. "$(dirname "$0")/lib.sh"

S0=$SEEDS/000_a97674fdc4297efd.txt
S1=$SEEDS/001_5b3cf86a040befc6.txt
R=$T/results
export COLUMNS=80

# Rows of a tidy page, "identifier<TAB>value", in page order.
tidy_rows() { awk 1 "$1" | sed -nE 's/^(.*[^ ]) \.+ (-?[0-9]+(\.[0-9]+)?) +\|=*$/\1\t\2/p'; }
# Rows of a flattened page: each runs from the previous bar (or "Is Better") to its own bar.
flat_rows() {
    grep -oE '[^|=]+ \.+ -?[0-9]+(\.[0-9]+)? \|' "$1" |
        sed -E 's/.*Is Better //; s/^ //; s/^(.*[^ ]) \.+ ([0-9.-]+) \|$/\1\t\2/'
}
count_systems() { "$SB" show "$1" --results-dir "$R" --format json | grep -c '"tool_version"'; }

# ---- seed 001: tidy layout
check_exit "import seed 001" 0 "$SB" import "$S1" --result s1 --results-dir "$R"
check "import wrote the named file" test -s "$R/s1.json"
check_exit "show seed 001 at width 80" 0 "$SB" show s1 --width 80 --results-dir "$R"
cp "$T/out" "$T/s1.txt"
if cmp -s "$T/s1.txt" <(cat "$S1"; echo); then ok "seed 001 shown byte for byte (plus final newline)"
else not_ok "seed 001 differs: $(diff <(cat "$S1"; echo) "$T/s1.txt" | head -5)"; fi
tidy_rows "$S1" >"$T/want1"
tidy_rows "$T/s1.txt" >"$T/got1"
if [ "$(wc -l <"$T/want1")" -eq 72 ] && cmp -s "$T/want1" "$T/got1"; then ok "seed 001: all 72 rows, identifiers and values in order"
else not_ok "seed 001 rows differ: $(diff "$T/want1" "$T/got1" | head -3)"; fi
check "seed 001: 6 systems" test "$(count_systems s1)" -eq 6
grep -q '^Single Disk \.* 67\.63 |' "$T/s1.txt" && ok "SQLite Single Disk 67.63" || not_ok "SQLite Single Disk 67.63"
grep -q '^2-Disk RAID1 + LZO + Nobarrier \.* 5639 |' "$T/s1.txt" && ok "PostMark integer 5639" || not_ok "PostMark integer 5639"

# Width: --width, else $COLUMNS (not a terminal here), else 80; the longest bar ends at W-1.
"$SB" show s1 --width 120 --results-dir "$R" >"$T/w120"
longest_bar() { grep '|=' "$1" | awk '{ if (length > m) m = length } END { print m }'; }
check "--width 120: longest bar row is 119 columns" test "$(longest_bar "$T/w120")" -eq 119
COLUMNS=100 "$SB" show s1 --results-dir "$R" >"$T/w100"
check "COLUMNS=100: longest bar row is 99 columns" test "$(longest_bar "$T/w100")" -eq 99
tidy_rows "$T/w120" >"$T/got120"
check "rows do not depend on the width" cmp -s "$T/want1" "$T/got120"

# JSON
check_exit "show --format json" 0 "$SB" show s1 --format json --results-dir "$R"
check "json is the result file" grep -q '"schema_version": 1' "$T/out"
check "json marks imported systems" grep -q '"tool_version": "imported"' "$T/out"
check "json maps titles to tests" grep -q '"test": "pgbench"' "$T/out"
check_exit "show by path" 0 "$SB" show "$R/s1.json" --width 80
check "show by path: same page" cmp -s "$T/out" "$T/s1.txt"

# ---- seed 000: the flattened layout
check_exit "import seed 000 (flattened)" 0 "$SB" import "$S0" --result s0 --results-dir "$R"
"$SB" show s0 --width 80 --results-dir "$R" >"$T/s0.txt"
flat_rows "$S0" >"$T/want0"
tidy_rows "$T/s0.txt" >"$T/got0"
if [ "$(wc -l <"$T/want0")" -eq 83 ] && cmp -s "$T/want0" "$T/got0"; then ok "seed 000: all 83 rows, identifiers and values in order"
else not_ok "seed 000 rows differ ($(wc -l <"$T/want0") rows): $(diff "$T/want0" "$T/got0" | head -3)"; fi
check "seed 000: 14 systems" test "$(count_systems s0)" -eq 14
squeeze() { tr -s ' \n\t' '   ' <"$1" | sed 's/ $//'; }
# The seed prints no row for the one configuration without an SQLite figure; show says
# "not run" beside an empty bar there, and is otherwise the seed.
grep -v ' not run |$' "$T/s0.txt" >"$T/s0-figures.txt"
if [ "$(squeeze "$T/s0-figures.txt")" = "$(squeeze "$S0")" ]; then ok "seed 000 shown = the seed up to whitespace (not-run row aside)"
else not_ok "seed 000 shown differs from the seed beyond whitespace"; fi
check "seed 000 title" test "$(head -1 "$T/s0.txt")" = "BCache Linux 4.8 HDD + SSD Disk Test"
check "seed 000 SQLite has 13 rows with figures" test "$(awk '/^SQLite 3.8.10.2$/ { on = 1 } on && /^$/ { exit } on && / \|/ && !/not run/ { n++ } END { print n }' "$T/s0.txt")" -eq 13
check "seed 000: one row not run, in SQLite" test "$(grep -c ' not run |$' "$T/s0.txt")" -eq 1 -a \
    "$(awk '/^SQLite 3.8.10.2$/ { on = 1 } on && /^$/ { exit } on && /not run \|$/ { print $1 }' "$T/s0.txt")" = Samsung
# stdin and --title
check_exit "import from stdin with --title" 0 sh -c "\"$SB\" import - --result s0t --title 'BCache Linux 4.8' --results-dir \"$R\" <\"$S0\""
"$SB" show s0t --results-dir "$R" >"$T/s0t.txt"
check "--title splits the heading" test "$(head -2 "$T/s0t.txt" | tr '\n' '|')" = "BCache Linux 4.8|HDD + SSD Disk Test SSD abd benchmarks by Michael Larabel for a future article. Linux 4.8 BCache tests were done with Samsung 850 EVO SSD + Hitachi HDD|"

# ---- adding to an existing result, clashes
sum1=$(md5sum <"$R/s1.json")
check_exit "import clash refused" 1 "$SB" import "$S1" --result s1 --results-dir "$R"
check_one_line "import clash: one line" "Single Disk"
check "import clash left the file as it was" test "$(md5sum <"$R/s1.json")" = "$sum1"
check_exit "import clash --replace" 0 "$SB" import "$S1" --result s1 --replace --results-dir "$R"
check "--replace keeps 6 systems" test "$(count_systems s1)" -eq 6
cp "$R/s1.json" "$T/s1-copy.json"
check_exit "import into an existing file adds" 0 "$SB" import "$S0" --result "$T/s1-copy.json"
check "now 20 systems" test "$(count_systems "$T/s1-copy.json")" -eq 20
"$SB" show "$T/s1-copy.json" --width 80 >"$T/both.txt"
check "the existing file keeps its title" test "$(head -1 "$T/both.txt")" = "Btrfs RAID Samsung Linux 4.4"
check "results of both pages (12 + 6, fio/sqlite/fs-mark/pgbench joined: 12)" \
    test "$(grep -c 'Is Better$' "$T/both.txt")" -eq 12

# ---- merge
check_exit "merge two files" 0 "$SB" merge all s1 s0 --results-dir "$R"
check "merge: 20 systems" test "$(count_systems all)" -eq 20
"$SB" show all --width 80 --results-dir "$R" >"$T/all.txt"
check "merged = imported into one" cmp -s "$T/all.txt" "$T/both.txt"
sum=$(md5sum <"$R/all.json")
check_exit "merge clash refused" 1 "$SB" merge all s1 --results-dir "$R"
check_one_line "merge clash: one line" "already"
check "merge clash left OUT as it was" test "$(md5sum <"$R/all.json")" = "$sum"
cp "$R/s1.json" "$R/s1b.json"
check_exit "merge clash between two inputs" 1 "$SB" merge new s1 s1b --results-dir "$R"
check_one_line "merge clash between inputs: one line" "already"
check "failed merge created nothing" test ! -e "$R/new.json"
check_exit "merge --replace" 0 "$SB" merge all s1 --replace --results-dir "$R"
check "merge --replace: still 20 systems" test "$(count_systems all)" -eq 20
check_exit "merge OUT into itself is a no-op" 0 "$SB" merge all all --results-dir "$R"
check "merge: OUT listed as input changes nothing" test "$(count_systems all)" -eq 20

# ---- a page storbench wrote itself reads back to the same page, tidy and flattened
if "$SB" run dd --quick --runs 1 -o count=4 -t "$T" --result own --identifier "Box One" --results-dir "$R" >/dev/null 2>"$T/run.err" &&
   "$SB" run dd --quick --runs 1 -o count=4 -t "$T" --result own --identifier "Box Two" --results-dir "$R" >/dev/null 2>>"$T/run.err"; then
    "$SB" show own --width 90 --results-dir "$R" >"$T/own.txt"
    check_exit "own page: import" 0 "$SB" import "$T/own.txt" --result own2 --results-dir "$R"
    "$SB" show own2 --width 90 --results-dir "$R" >"$T/own2.txt"
    check "own page: shown again, byte for byte" cmp -s "$T/own.txt" "$T/own2.txt"
    tr -s ' \n\t' '   ' <"$T/own.txt" >"$T/ownflat.txt"
    check_exit "own page flattened: import" 0 "$SB" import "$T/ownflat.txt" --result own3 --results-dir "$R"
    "$SB" show own3 --width 90 --results-dir "$R" >"$T/own3.txt"
    check "own page flattened: shown again, byte for byte" cmp -s "$T/own.txt" "$T/own3.txt"
    check "own page: the dd results map back to the dd test" \
        test "$("$SB" show own3 --format json --results-dir "$R" | grep -c '"test": "dd"')" -eq 3
else
    not_ok "run dd for the own-page round trip ($(head -c 300 "$T/run.err"))"
fi

# ---- refusals
check_exit "import of a non-page file" 1 "$SB" import "$SRC/tests/data/dbench/loadfile.txt" --result bad --results-dir "$R"
check_one_line "import non-page: one line" "not a result page"
check "import non-page created nothing" test ! -e "$R/bad.json"
check_exit "import of a missing file" 1 "$SB" import "$T/nonexistent" --result bad --results-dir "$R"
check_one_line "import missing: one line" "nonexistent"
check_exit "show of a non-JSON file" 1 "$SB" show "$S1"
check_one_line "show non-JSON: one line" "not a storbench result file"
check "show of a text page points to import" grep -q "storbench import" "$T/err"
sed 's/"schema_version": 1/"schema_version": 99/' "$R/s1.json" >"$T/future.json"
check_exit "show of an unknown schema version" 1 "$SB" show "$T/future.json"
check_one_line "unknown schema: one line" "schema version"
check_exit "show of a missing name" 1 "$SB" show nosuch --results-dir "$R"
check_one_line "show missing: one line" "nosuch"
sum=$(md5sum <"$R/all.json")
check_exit "merge with a non-result input" 1 "$SB" merge all s0 "$S1" --replace --results-dir "$R"
check_one_line "merge non-result input: one line" "not a storbench result file"
check "merge failure left OUT as it was" test "$(md5sum <"$R/all.json")" = "$sum"

# ---- usage
for cmd in show merge import; do
    check_exit "$cmd --help" 0 "$SB" $cmd --help
    check "$cmd --help on stdout" grep -q "usage: storbench $cmd" "$T/out"
    check_exit "$cmd unknown option" 2 "$SB" $cmd --bogus x
    check_one_line "$cmd unknown option: one line" "bogus"
done
check_exit "show without a name" 2 "$SB" show
check_one_line "show without a name: one line" "show"
check_exit "show bad width" 2 "$SB" show s1 --width abc --results-dir "$R"
check_one_line "show bad width: one line" "width"
check_exit "show unknown format" 2 "$SB" show s1 --format xml --results-dir "$R"
check_one_line "show unknown format: one line" "xml"
check_exit "import without --result" 2 "$SB" import "$S1"
check_one_line "import without --result: one line" "result"
check_exit "merge with one file" 2 "$SB" merge all
check_one_line "merge with one file: one line" "input"
finish
