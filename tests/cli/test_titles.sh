#!/bin/bash
# Titles tell the truth, and imported and measured figures share a chart:
# a measured result's title line names what ran ("SQLite 3.40.1 (storbench
# sqlite)", "PostgreSQL 15.x (storbench pgbench)", "Flexible IO Tester
# (storbench fio)"), never a seed profile's version; a figure measured into a
# file that holds the imported seed 001 lands in the seed's chart (matched on
# test and options, not title), and every format marks which figures were
# imported and which measured; pages round-trip through import.
. "$(dirname "$0")/lib.sh"

S1=$SEEDS/001_5b3cf86a040befc6.txt
R=$T/results
W=$T/target
mkdir -p "$W"
# The pgbench server runs as an unprivileged user when we are root: it must pass through $T.
chmod 711 "$T"
export COLUMNS=80
# A short fio job whose option line is the seed's (size, runtime... are hidden options).
FIO=(run fio -o type=randwrite -o size=8m -o runtime=1 -o ramp=0 -o startdelay=0 -n 1 --exact-runs
     -t "$W" --results-dir "$R")

json() { "$SB" show "$1" --results-dir "$R" --format json; }
# python3 one-liner over the result file's JSON
pyj() { json "$1" | python3 -c "import json,sys; d=json.load(sys.stdin); $2"; }

# ---- seed 001 imported, then fio measured into the same file
check_exit "import seed 001" 0 "$SB" import "$S1" --result mix --results-dir "$R"
check_exit "run fio into the seed's file" 0 "$SB" "${FIO[@]}" -r mix -i "here box"
check "run prints what ran" grep -q '^Flexible IO Tester (storbench fio) \[Type: Random Write' "$T/out"
check "one chart for the seed's random write and the measured one" test "$(pyj mix "
print(len([r for r in d['results'] if r['test'] == 'fio' and r['description'].startswith('Type: Random Write')]))")" = 1
check "that chart has 6 imported and 1 measured figures" test "$(pyj mix "
r = [r for r in d['results'] if r['test'] == 'fio' and r['description'].startswith('Type: Random Write')][0]
print(sorted((e['origin'], e['source']) for e in r['entries']) == sorted(
    [('imported', 'Flexible IO Tester 2.1.13')] * 6 + [('measured', 'Flexible IO Tester (storbench fio)')]))")" = True
check "the measured figure's options are recorded" test "$(pyj mix "
r = [r for r in d['results'] if r['test'] == 'fio' and r['description'].startswith('Type: Random Write')][0]
print(r['options'].get('runtime'))")" = 1

check_exit "show the mixed file" 0 "$SB" show mix --results-dir "$R" --width 80
cp "$T/out" "$T/mix.txt"
# The chart: the test's title alone, rows marked [1]/[2], then the legend.
awk '/^Type: Random Write/ { p = prev } { prev = $0 } END { print p }' "$T/mix.txt" >"$T/head"
check "mixed chart title is the test's title" test "$(cat "$T/head")" = "Flexible IO Tester"
check "imported rows marked [1]" grep -q '^Single Disk \[1\] \.* 77\.35 ' "$T/mix.txt"
check "measured row marked [2]" grep -qE '^here box \[2\] \.* [0-9.]+ +\|' "$T/mix.txt"
check "legend names the imported source" grep -qx '\[1\] imported: Flexible IO Tester 2.1.13' "$T/mix.txt"
check "legend names the measured source" grep -qx '\[2\] measured: Flexible IO Tester (storbench fio)' "$T/mix.txt"
check "a chart with one source keeps the seed's title line" grep -qx 'SQLite 3.8.10.2' "$T/mix.txt"
check "no seed version on a measured figure" test "$(grep -c 'storbench fio) 2.1.13\|2.1.13 (storbench' "$T/mix.txt")" = 0

check_exit "csv of the mixed file" 0 "$SB" show mix --results-dir "$R" --format csv
check "csv: imported row" grep -q ',Single Disk,result,MB/s,higher,77.35,,,0,no,imported,Flexible IO Tester 2.1.13,,,no,$' "$T/out"
check "csv: measured row" grep -qE ',here box,result,MB/s,higher,[0-9.]+,[0-9.]*,[0-9.]*,1,(yes|no),measured,Flexible IO Tester \(storbench fio\),,,no,$' "$T/out"
check_exit "html of the mixed file" 0 "$SB" show mix --results-dir "$R" --format html
check "html legend: imported" grep -q '<li data-origin="imported">\[1\] imported: Flexible IO Tester 2.1.13</li>' "$T/out"
check "html legend: measured" grep -q '<li data-origin="measured">\[2\] measured: Flexible IO Tester (storbench fio)</li>' "$T/out"
check "html label marked" grep -q '>here box \[2\]</text>' "$T/out"
check_exit "compare the mixed file" 0 "$SB" compare mix --results-dir "$R"
check "compare: measured row marked" grep -qE '^here box \.* +[0-9.]+ .*\[2\]$' "$T/out"
check "compare: legend" grep -qx '\[2\] measured: Flexible IO Tester (storbench fio)' "$T/out"

# ---- the mixed page read back: same page, every figure now imported
check_exit "import the mixed page" 0 "$SB" import "$T/mix.txt" --result back --results-dir "$R"
"$SB" show back --results-dir "$R" --width 80 >"$T/back.txt"
if diff <(sed 's/^\[2\] measured: /[2] imported: /' "$T/mix.txt") "$T/back.txt" >/dev/null; then
    ok "mixed page round trip (measured figures come back imported)"
else
    not_ok "mixed page round trip: $(diff <(sed 's/^\[2\] measured: /[2] imported: /' "$T/mix.txt") "$T/back.txt" | head -4)"
fi
check "identifiers come back without their marks" test "$(pyj back "print(sorted(s['identifier'] for s in d['systems'])[-1])")" = "here box"
tr -s ' \n\t' ' ' <"$T/mix.txt" >"$T/mix-flat.txt"
check_exit "a flattened page with a legend is refused" 1 "$SB" import "$T/mix-flat.txt" --result flat --results-dir "$R"
check_one_line "flattened legend: one line" "legend"
check "refused import wrote nothing" test ! -e "$R/flat.json"

# ---- a page of storbench's own figures: the tag maps back to the test
check_exit "run fio into a new file" 0 "$SB" "${FIO[@]}" -r own -i one
"$SB" show own --results-dir "$R" --width 80 >"$T/own.txt"
check "own page: title line names storbench's test" grep -qx 'Flexible IO Tester (storbench fio)' "$T/own.txt"
for layout in tidy flat; do
    if [ $layout = flat ]; then tr -s ' \n\t' ' ' <"$T/own.txt" >"$T/own-in.txt"; else cp "$T/own.txt" "$T/own-in.txt"; fi
    check_exit "import own page ($layout)" 0 "$SB" import "$T/own-in.txt" --result own-$layout --results-dir "$R"
    "$SB" show own-$layout --results-dir "$R" --width 80 >"$T/own-back.txt"
    check "own page ($layout) shown again byte for byte" cmp -s "$T/own.txt" "$T/own-back.txt"
    check "own page ($layout): test is fio" test "$(pyj own-$layout "print(d['results'][0]['test'])")" = fio
done

# ---- results join on options: a hidden option that differs makes another chart
check_exit "fio with another size into 'own'" 0 "$SB" "${FIO[@]}" -r own -i two -o size=16m
check "different options: two charts" test "$(pyj own "print(len(d['results']))")" = 2
check_exit "fio with the first size again" 0 "$SB" "${FIO[@]}" -r own -i three
check "same options: joins the first chart" test "$(pyj own "print(len(d['results'][0]['entries']))")" = 2

# ---- libraries and servers that ran are named with their versions
check_exit "sqlite tiny run" 0 "$SB" run sqlite -o count=5 -n 1 --exact-runs -t "$W" -r db -i x --results-dir "$R"
check "sqlite: the linked library's version" test "$(pyj db "
import re; s = d['results'][0]['entries'][0]['source']
print(bool(re.fullmatch(r'SQLite 3\.\d+\.\d+(\.\d+)? \(storbench sqlite\)', s)) and '3.8.10.2' not in s)")" = True
if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    want=$(/usr/lib/postgresql/*/bin/postgres --version | sed -E 's/.*\) ([0-9.]+).*/\1/' | sort -V | tail -1)
    check_exit "pgbench short run" 0 "$SB" run pgbench -q -o duration=1 -n 1 --exact-runs -t "$W" -r pg -i x \
        --results-dir "$R"
    check "pgbench: the server's version ($want)" test "$(pyj pg "print(d['results'][0]['entries'][0]['source'])")" \
        = "PostgreSQL $want (storbench pgbench)"
else
    ok "pgbench: no PostgreSQL server installed here (the source is checked where it is)"
fi

# ---- a result file written before entries had an origin
cat >"$T/old.json" <<'EOF'
{"format": "storbench-result", "schema_version": 1, "title": "t", "description": "",
 "systems": [{"identifier": "pg", "hardware": {}, "software": {}, "storage": {}, "timestamp": "",
              "tool_version": "imported"},
             {"identifier": "me", "hardware": {}, "software": {}, "storage": {}, "timestamp": "x",
              "tool_version": "0.1.0"}],
 "results": [{"test": "dd", "title": "dd", "version": "1.0", "description": "Test: Direct Write",
              "unit": "MB/s", "direction": "higher", "options": {},
              "entries": [{"identifier": "pg", "mean": 1, "sd": 0, "se": 0, "decimals": 2,
                           "values": [], "untrusted": false, "secondary": []},
                          {"identifier": "me", "mean": 2, "sd": 0, "se": 0, "decimals": 2,
                           "values": [2], "untrusted": false, "secondary": []}]}]}
EOF
check_exit "an old file is read" 0 "$SB" show "$T/old.json" --format csv
check "old file: origin from the system's tool_version" grep -q ',pg,result,MB/s,higher,1,,,0,no,imported,dd 1.0,,,no,$' "$T/out"
check "old file: a measured figure" grep -q ',me,result,MB/s,higher,2,0,0,1,no,measured,dd 1.0,,,no,$' "$T/out"
finish
