#!/bin/bash
# Uncertainty on every page (issue 26): "SE +/- x, N = n" under each figure of two runs or
# more, a mark and a legend on a figure whose relative SD is above 10 %, in text, CSV and
# HTML; import reads the SE lines back (tidy and flattened, and a page in PTS's own
# layout), so show -> import -> show is the same page; a seed page gets no SE line.
. "$(dirname "$0")/lib.sh"
R=$T/r
mkdir -p "$R"
# Three systems: steady (3 runs, RSD < 1 %), noisy (3 runs, RSD 20 %), one run.
cat >"$T/u.json" <<'JSON'
{"format": "storbench-result", "schema_version": 1, "title": "U", "description": "d",
 "systems": [
  {"identifier": "Steady Box", "hardware": {"Processor": "P"}, "software": {"OS": "O"}, "timestamp": "", "tool_version": "0.1.0"},
  {"identifier": "Noisy", "hardware": {"Processor": "P"}, "software": {"OS": "O"}, "timestamp": "", "tool_version": "0.1.0"},
  {"identifier": "Once", "hardware": {"Processor": "P"}, "software": {"OS": "O"}, "timestamp": "", "tool_version": "0.1.0"}],
 "results": [
  {"test": "dd", "title": "dd", "version": "", "description": "Test: Direct Write", "unit": "MB/s",
   "direction": "higher", "options": {},
   "entries": [
    {"identifier": "Steady Box", "origin": "measured", "source": "dd (storbench dd)", "mean": 100, "sd": 1, "se": 0.57735, "values": [99, 100, 101]},
    {"identifier": "Noisy", "origin": "measured", "source": "dd (storbench dd)", "mean": 50, "sd": 10, "se": 5.7735, "values": [40, 50, 60]},
    {"identifier": "Once", "origin": "measured", "source": "dd (storbench dd)", "mean": 70, "sd": 0, "se": 0, "values": [70]}]}]}
JSON
check_exit "show a file with runs" 0 "$SB" show "$T/u.json" --width 80
cp "$T/out" "$T/u.txt"
# the identifier column is 12 wide, the SE text 18: indented by the minimum of 4
check "SE line under the steady row" grep -qx '    SE +/- 0.58, N = 3' "$T/u.txt"
check "SE line of the noisy figure, marked" grep -qx '    SE +/- 5.77, N = 3 !' "$T/u.txt"
check "the SE line follows its row" \
    sh -c "grep -A1 '^Noisy \.' '$T/u.txt' | tail -1 | grep -q 'SE +/- 5.77, N = 3 !'"
check "one legend line for the mark" grep -qx '! noisy: standard deviation above 10 % of the mean' "$T/u.txt"
if grep -A1 '^Once \.' "$T/u.txt" | tail -1 | grep -q 'SE +/-'; then not_ok "a single run has no SE line"
else ok "a single run has no SE line"; fi

# round trip: tidy and flattened
check_exit "import the page" 0 "$SB" import "$T/u.txt" --result back --results-dir "$R"
"$SB" show back --width 80 --results-dir "$R" >"$T/back.txt"
cmp -s "$T/u.txt" "$T/back.txt" && ok "round trip byte for byte" || not_ok "round trip differs: $(diff "$T/u.txt" "$T/back.txt" | head -5)"
"$SB" show back --format json --results-dir "$R" >"$T/back.json"
check "imported SE kept" grep -Eq '"se": 5.7(7|69999)' "$T/back.json"
check "imported N kept" grep -q '"runs": 3' "$T/back.json"
tr -s ' \n\t' ' ' <"$T/u.txt" >"$T/flat.txt"
check_exit "import the flattened page" 0 "$SB" import "$T/flat.txt" --result flat --results-dir "$R"
"$SB" show flat --width 80 --results-dir "$R" >"$T/flat-back.txt"
# (flattening joins title and description: compared from the systems on)
cmp -s <(tail -n +3 "$T/u.txt") <(tail -n +3 "$T/flat-back.txt") && ok "flattened round trip: same page" ||
    not_ok "flattened round trip differs: $(diff "$T/u.txt" "$T/flat-back.txt" | head -5)"

# CSV: SE and N, the relative SD and the mark, also for the imported figures
"$SB" show back --format csv --results-dir "$R" >"$T/back.csv"
check "csv: imported noisy figure with SE, N, RSD, mark" \
    grep -q ',Noisy,result,MB/s,higher,50,9.99393316,5.77,3,no,imported,dd (storbench dd),19.99,yes,no,$' "$T/back.csv"
"$SB" show "$T/u.json" --format csv >"$T/u.csv"
check "csv: measured steady figure not marked" grep -q ',Steady Box,result,MB/s,higher,100,1,0.57735,3,no,measured,.*,1.00,no,no,$' "$T/u.csv"
check "csv: a single run has no RSD" grep -q ',Once,result,MB/s,higher,70,0,0,1,no,measured,dd (storbench dd),,,no,$' "$T/u.csv"

# HTML: the noisy bar is marked, with a note
"$SB" show "$T/u.json" --format html >"$T/u.html"
check "html: noisy row marked" grep -q 'data-identifier="Noisy" data-noisy="1"' "$T/u.html"
check "html: legend note" grep -q '! noisy: standard deviation above 10 % of the mean' "$T/u.html"
if grep -q 'data-identifier="Steady Box" data-noisy' "$T/u.html"; then not_ok "html: steady row not marked"; else ok "html: steady row not marked"; fi

# A page in PTS's own text layout (pts_result_file_output::result_file_to_text at a width
# above 80 indents every chart line by four spaces) with SE lines as its graphs print them.
printf '%s\n' 'PTS page' 'desc' '' '' 'a: ' '' $'\tProcessor: P' '' $'\tOS: O' '' 'bb: ' '' $'\tProcessor: P' '' $'\tOS: O' '' \
    '    SQLite 3.30.1' '    Threads / Copies: 1' '    Seconds < Lower Is Better' \
    '    a .. 8.86 |=====================================================================' \
    '        SE +/- 0.04, N = 3' \
    '    bb . 8.92 |======================================================================' \
    '          SE +/- 0.12, N = 5' >"$T/pts.txt"
check_exit "import a PTS-layout page with SE lines" 0 "$SB" import "$T/pts.txt" --result pts --results-dir "$R"
"$SB" show pts --format csv --results-dir "$R" >"$T/pts.csv"
check "PTS page: SE and N of a" grep -q ',a,result,Seconds,lower,8.86,0.0692820323,0.04,3,' "$T/pts.csv"
check "PTS page: SE and N of bb" grep -q ',bb,result,Seconds,lower,8.92,0.2683281573,0.12,5,' "$T/pts.csv"

# refused: an SE line with no row above it, a damaged one
printf '%s\n' 'T' 'D' '' '' 'R 1.0' 'MB/s > Higher Is Better' '  SE +/- 1.00, N = 3' 'a . 1.00 |=' >"$T/bad1.txt"
check_exit "an SE line before any row is refused" 1 "$SB" import "$T/bad1.txt" --result bad1 --results-dir "$R"
check_one_line "... with one line naming it" "SE line"
printf '%s\n' 'T' 'D' '' '' 'R 1.0' 'MB/s > Higher Is Better' 'a . 1.00 |=' '  SE +/- 1.00, N = 0' >"$T/bad2.txt"
check_exit "N = 0 is refused" 1 "$SB" import "$T/bad2.txt" --result bad2 --results-dir "$R"

# a seed page has no SE line: shown as it was
check_exit "import seed 001" 0 "$SB" import "$SEEDS"/001_*.txt --result seed --results-dir "$R"
"$SB" show seed --width 80 --results-dir "$R" >"$T/seed.txt"
if grep -q 'SE +/-\|^! noisy' "$T/seed.txt"; then not_ok "seed page: no SE lines"; else ok "seed page: no SE lines"; fi
finish
