#!/bin/bash
# compare of several files or names with different tests: one comparison, a test
# only one side has is listed with the other's row "not run" (not dropped, not an
# error); an identifier both files have is renamed "ID (NAME)" with a line on
# stderr. show of a merged page where a configuration lacks a figure: a row "not
# run" with an empty bar (text, read back by import; html an empty bar).
. "$(dirname "$0")/lib.sh"

R=$T/results
mkdir -p "$R" "$T/w"
export COLUMNS=80
# mkresult FILE IDENTIFIER TEST-DESCRIPTION VALUE [TEST-DESCRIPTION VALUE]...
mkresult() {
    local f=$1 id=$2 results="" sep=""
    shift 2
    while [ $# -ge 2 ]; do
        results="$results$sep{\"test\": \"dd\", \"title\": \"dd\", \"version\": \"1.0\",
          \"description\": \"Test: $1\", \"unit\": \"MB/s\", \"direction\": \"higher\",
          \"entries\": [{\"identifier\": \"$id\", \"mean\": $2, \"sd\": 1, \"se\": 0.5,
          \"values\": [$2, $2, $2], \"decimals\": 2}]}"
        sep=","
        shift 2
    done
    cat >"$f" <<EOF
{"format": "storbench-result", "schema_version": 1, "title": "T $id", "description": "",
 "systems": [{"identifier": "$id", "hardware": {"Processor": "X"}, "software": {"OS": "Debian"},
   "storage": {"Target": "/mnt/x"}, "timestamp": "2026-12-01T05:45:57Z", "tool_version": "0.1.0"}],
 "results": [$results]}
EOF
}
cd "$T/w" || exit 1
mkresult a.json ssd "Direct Write" 500 "Direct Read" 900
mkresult b.json hdd "Direct Write" 100 "Read Cache" 3000
# value of the row of identifier $1 under the chart whose option line is "Test: $2"
row_of() { awk -v t="Test: $2" -v id="$1" '$0 == t { on = 1; next } on && /^$/ { exit } on && index($0, id " .") == 1 { r = substr($0, length(id) + 1); sub(/^ \.+ /, "", r); print r }' "$3"; }

# ---- compare a.json b.json: both tests a lacks and b lacks are listed
check_exit "compare a.json b.json" 0 "$SB" compare a.json b.json --results-dir "$R"
cp "$T/out" "$T/cmp"
check "compare: nothing on stderr" test ! -s "$T/err"
check "compare: the shared test compares hdd with ssd" test "$(row_of hdd 'Direct Write' "$T/cmp")" = "100.00  -80.0%"
check "compare: a test only a has: hdd not run" test "$(row_of hdd 'Direct Read' "$T/cmp")" = "not run"
check "compare: a test only b has: listed" grep -qx 'Test: Read Cache' "$T/cmp"
check "compare: a test only b has: ssd not run" test "$(row_of ssd 'Read Cache' "$T/cmp")" = "not run"
check "compare: a test only b has: hdd without a base figure" \
    test "$(row_of hdd 'Read Cache' "$T/cmp")" = "3000.00  (no base figure)"
check "compare: geometric mean over the one shared test" grep -q '^hdd \. -80\.0% (x0\.2) over 1 test' "$T/cmp"
check "overview: each lacks one result" test "$(grep -c '1 lacking' "$T/cmp")" -eq 2
check_exit "compare --base hdd across files" 0 "$SB" compare a.json b.json --base hdd --results-dir "$R"
check "--base hdd: ssd +400%" test "$(row_of ssd 'Direct Write' "$T/out")" = "500.00  +400.0%"

# ---- names and files mixed; saved names still work
cp b.json "$R/saved-b.json"
check_exit "compare a.json saved-b (a file and a saved name)" 0 "$SB" compare a.json saved-b --results-dir "$R"
check "file and saved name: the same comparison" cmp -s "$T/out" "$T/cmp"
check_exit "compare a.json missing" 1 "$SB" compare a.json missing --results-dir "$R"
check_one_line "a missing input: one line" "no result named 'missing'"
check "a missing input: nothing on stdout" test ! -s "$T/out"

# ---- the same identifier in two files: renamed, said once
mkresult c.json ssd "Direct Write" 250
check_exit "compare a.json c.json (both have ssd)" 0 "$SB" compare a.json c.json --results-dir "$R"
check_one_line "clash: one line on stderr" "shown as 'ssd (c.json)'"
check "clash: renamed row" test "$(row_of 'ssd (c.json)' 'Direct Write' "$T/out")" = "250.00  -50.0%"
check "clash: the renamed one lacks Direct Read" test "$(row_of 'ssd (c.json)' 'Direct Read' "$T/out")" = "not run"
check "clash: the files are untouched" grep -q '"identifier": "ssd"' c.json

# ---- show of a merged page: "not run" with an empty bar, read back by import
check_exit "merge a and b" 0 "$SB" merge m a.json b.json --results-dir "$R"
check_exit "show the merged page" 0 "$SB" show m --results-dir "$R" --width 80
cp "$T/out" "$T/m.txt"
check "show: hdd not run in Direct Read, empty bar" grep -qx 'hdd \. not run |' <(awk '$0 == "Test: Direct Read" { on = 1 } on' "$T/m.txt")
check "show: ssd not run in Read Cache" test "$(awk '$0 == "Test: Read Cache" { on = 1 } on && /not run/' "$T/m.txt")" = "ssd . not run |"
check "show: two not-run rows in all" test "$(grep -c 'not run' "$T/m.txt")" -eq 2
check "show: the figures' bars unchanged (the longest ends at column 79)" \
    test "$(grep '|=' "$T/m.txt" | awk '{ if (length > m) m = length } END { print m }')" -eq 79
check_exit "import the shown page" 0 "$SB" import "$T/m.txt" --result back --results-dir "$R"
check "import: the not-run rows are no figures" \
    test "$("$SB" show back --results-dir "$R" --format json | grep -c '"mean"')" -eq 4
"$SB" show back --results-dir "$R" --width 80 >"$T/back.txt"
check "the page read back shows the same rows" diff <(grep ' |' "$T/m.txt") <(grep ' |' "$T/back.txt")
check_exit "show the merged page as html" 0 "$SB" show m --results-dir "$R" --format html
check "html: an empty bar for hdd in a chart it lacks" \
    grep -q '<g class="not-run" data-identifier="hdd"><title>hdd: not run</title>' "$T/out"
check "html: two not-run rows" test "$(grep -c '<rect class="bar empty"' "$T/out")" -eq 2

finish
