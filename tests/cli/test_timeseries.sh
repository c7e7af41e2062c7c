#!/bin/bash
# CLI tests of time series and steady state in result files and reports: a file
# with series and a steady-state outcome loads, keeps them through merge, `show`
# marks the figure that did not reach steady state, `show --sparklines` prints a
# row per identifier, the HTML page draws the lines; a damaged series is refused
# with one line naming the field, and a file without the keys still loads.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }

# Two identifiers: A with a rising series and all runs steady, B with a dip and one run
# of two that ended before steady state.
cat >"$T/ts.json" <<'JSON'
{"format": "storbench-result", "schema_version": 1, "title": "ts", "description": "",
 "systems": [{"identifier": "A", "hardware": {}, "software": {}, "timestamp": "", "tool_version": "0.1.0"},
             {"identifier": "B", "hardware": {}, "software": {}, "timestamp": "", "tool_version": "0.1.0"}],
 "results": [{"test": "fio", "title": "Flexible IO Tester", "version": "", "description": "Type: Random Write",
   "unit": "MB/s", "direction": "higher", "options": {},
   "entries": [
    {"identifier": "A", "mean": 100, "values": [100, 100],
     "series": {"interval_s": 1, "run": 2, "t": [1, 2, 3, 4], "iops": [10, 20, 30, 40],
                "bw": [1e6, 2e6, 3e6, 4e6], "lat_mean_us": [5, 5, 5, 5], "lat_p99_us": [9, 9, 9, 12]},
     "steady_state": {"criterion": "iops_slope:2%", "runs": 2, "attained": 2, "attained_s": 3.5}},
    {"identifier": "B", "mean": 90, "values": [80, 100],
     "series": {"interval_s": 1, "run": 1, "t": [1, 2, 3], "iops": [40, 5, 40],
                "bw": [4e6, 5e5, 4e6], "lat_mean_us": [5, 50, 5], "lat_p99_us": [9, 90, 9]},
     "steady_state": {"criterion": "iops_slope:2%", "runs": 2, "attained": 1, "attained_s": 4}}]}]}
JSON

check_exit "show a file with series" 0 "$SB" show "$T/ts.json" --width 80
check "the unsteady figure is marked" grep -q '^B (not steady) \. 90' "$T/out"
check "the steady one is not" grep -q '^A \.* 100\.00 ' "$T/out"
check "no sparklines by default (the page stays importable)" test "$(grep -c 'Over time' "$T/out")" -eq 0
cp "$T/out" "$T/page.txt"
check_exit "the marked page imports" 0 "$SB" import "$T/page.txt" --result "$T/imp.json"

check_exit "show --sparklines" 0 "$SB" show "$T/ts.json" --width 80 --sparklines
check "sparkline header" grep -q '^Over time (MB/s per 1 s interval' "$T/out"
check "A rises" grep -q '^A  *▁▃▆█ 1\.\.4, p99 9\.\.12 us' "$T/out"
check "B dips" grep -q '^B (not steady) █▁█ ' "$T/out"

check_exit "show html" 0 "$SB" show "$T/ts.json" --format html
check "html: a figure chart and a p99 chart" test "$(grep -c 'class="timeseries"' "$T/out")" -eq 2
check "html: one line per identifier per chart" test "$(grep -o 'class="ts-line"' "$T/out" | wc -l)" -eq 4
check "html: A's four points" grep -q 'data-identifier="A" data-points="4"' "$T/out"
check "html: the not-steady note" grep -q 'B: the job ended before steady state in 1 of 2 runs' "$T/out"

check_exit "json keeps the series" 0 "$SB" show "$T/ts.json" --format json
check "json: series columns" jqok '.results[0].entries[0].series.iops == [10,20,30,40] and .results[0].entries[0].series.run == 2' "$T/out"
check "json: steady state" jqok '.results[0].entries[1].steady_state.attained == 1' "$T/out"

# merge carries them into another file
jq '.systems |= map(select(.identifier == "A")) | .results[0].entries |= map(select(.identifier == "A"))' \
    "$T/ts.json" >"$T/a.json"
jq '.systems |= map(select(.identifier == "B")) | .results[0].entries |= map(select(.identifier == "B"))' \
    "$T/ts.json" >"$T/b.json"
check_exit "merge" 0 "$SB" merge "$T/m.json" "$T/a.json" "$T/b.json"
check "merged: both series" jqok '[.results[0].entries[].series.t | length] == [4, 3]' "$T/m.json"
check "merged: steady state" jqok '.results[0].entries[1].steady_state.criterion == "iops_slope:2%"' "$T/m.json"

# damaged series: one line naming the field, exit 1
jq '.results[0].entries[0].series.iops = [1, 2]' "$T/ts.json" >"$T/bad1.json"
check_exit "series columns of unequal length refused" 1 "$SB" show "$T/bad1.json"
check_one_line "names the column" "series.iops"
jq '.results[0].entries[0].series.interval_s = 0' "$T/ts.json" >"$T/bad2.json"
check_exit "zero interval refused" 1 "$SB" show "$T/bad2.json"
check_one_line "names interval_s" "series.interval_s"
jq '.results[0].entries[1].steady_state.attained = 3' "$T/ts.json" >"$T/bad3.json"
check_exit "more attained than runs refused" 1 "$SB" show "$T/bad3.json"
check_one_line "names steady_state" "steady_state"
# an old file, without the keys
jq 'del(.results[0].entries[].series, .results[0].entries[].steady_state)' "$T/ts.json" >"$T/old.json"
check_exit "a file without series loads" 0 "$SB" show "$T/old.json" --sparklines
check "and shows no sparkline" test "$(grep -c 'Over time' "$T/out")" -eq 0

finish
