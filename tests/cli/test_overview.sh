#!/bin/bash
# CLI tests of the overview (report/overview.c): geometric mean relative to the base
# (direction-aware), wins, lacking results and results too noisy to rank, in
# `compare`, `show --overview` (text and CSV) and the HTML page's first chart.
. "$(dirname "$0")/lib.sh"

# A: base. B: twice as good on both tests (MB/s higher, seconds lower), lacks nothing.
# C: lacks the second test. The third test is noisy (RSD 20 %): no wins.
cat >"$T/ov.json" <<'JSON'
{"format": "storbench-result", "schema_version": 1, "title": "ov", "description": "",
 "systems": [{"identifier": "A", "hardware": {}, "software": {}, "timestamp": "", "tool_version": "0.1.0"},
             {"identifier": "B", "hardware": {}, "software": {}, "timestamp": "", "tool_version": "0.1.0"},
             {"identifier": "C", "hardware": {}, "software": {}, "timestamp": "", "tool_version": "0.1.0"}],
 "results": [
  {"test": "dd", "title": "dd", "version": "", "description": "t1", "unit": "MB/s", "direction": "higher", "options": {},
   "entries": [{"identifier": "A", "mean": 100}, {"identifier": "B", "mean": 200}, {"identifier": "C", "mean": 50}]},
  {"test": "dd", "title": "dd", "version": "", "description": "t2", "unit": "Seconds", "direction": "lower", "options": {},
   "entries": [{"identifier": "A", "mean": 10}, {"identifier": "B", "mean": 5}]},
  {"test": "dd", "title": "dd", "version": "", "description": "t3", "unit": "MB/s", "direction": "higher", "options": {},
   "entries": [{"identifier": "A", "mean": 100, "sd": 20, "values": [80, 100, 120]},
               {"identifier": "C", "mean": 300, "sd": 3, "values": [297, 300, 303]}]}]}
JSON

check_exit "show --overview" 0 "$SB" show "$T/ov.json" --overview
check "B: twice as good over its two shared results" grep -Eq '^  B +x2\.000 +\(\+100\.0%\) over 2, 2 wins, 1 lacking$' "$T/out"
check "A: the base" grep -Eq '^  A +x1\.000 .* over 3, 0 wins, 0 lacking \(base\)$' "$T/out"
check "C: half on t1, three times on t3 (noisy results still count in the mean)" \
    grep -Eq '^  C +x1\.225 .* over 2, 0 wins, 1 lacking$' "$T/out"
check "the noisy result is listed" grep -q 't3\]: 20.0 %' "$T/out"
check_exit "show --overview --format csv" 0 "$SB" show "$T/ov.json" --overview --format csv
check "csv header" grep -q '^identifier,geomean,results_compared,wins,lacks,base$' "$T/out"
check "csv row" grep -q '^B,2,2,2,1,no$' "$T/out"
check_exit "compare starts with the overview" 0 "$SB" compare "$T/ov.json" --base B
check "relative to B" grep -q '^Overview: relative to B' "$T/out"
check "A is half of B" grep -Eq '^  A +x0\.500 ' "$T/out"
check_exit "html" 0 "$SB" show "$T/ov.json" --format html
check "html: the overview first" test "$(grep -n 'id="overview"' "$T/out" | cut -d: -f1)" -lt "$(grep -n 'id="result-1"' "$T/out" | cut -d: -f1)"
check "html: a bar per identifier shared with the base" test "$(grep -c 'data-geomean=' "$T/out")" -eq 3
check "html: the noisy result marked" grep -q 'Too noisy to rank: a figure.s relative SD is 20.0 %' "$T/out"
check_exit "show without --overview keeps the seed page" 0 "$SB" show "$T/ov.json"
check "no overview in the page" test "$(grep -c 'Overview' "$T/out")" -eq 0
finish
