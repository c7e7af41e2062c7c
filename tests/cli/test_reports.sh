# The report formats and compare from the command line: show --format csv,
# json and html, -o written whole (never a half file, nothing left beside
# it), and compare's differences, significance marks and geometric mean, on
# an imported seed and on a hand-written result file with real runs.
. "$(dirname "$0")/lib.sh"

SEED=$SEEDS/001_5b3cf86a040befc6.txt
check_exit "import seed 001" 0 "$SB" import "$SEED" --result btrfs

# A result file with runs, so that spreads are known. "new <b>" is 20% faster on seq
# (well outside the spread) and 2% slower on lat (inside it); only base ran "only".
mkdir -p "$T/files"
cat >"$T/files/runs.json" <<'EOF'
{
  "format": "storbench-result", "schema_version": 1,
  "title": "Runs & spreads", "description": "hand-written",
  "systems": [
    {"identifier": "base", "hardware": {"Disk": "old"}, "software": {"Kernel": "6.1"},
     "storage": {}, "timestamp": "2026-11-30T04:00:00Z", "tool_version": "0.1.0"},
    {"identifier": "new <b>", "hardware": {"Disk": "new"}, "software": {"Kernel": "6.1"},
     "storage": {}, "timestamp": "2026-11-30T04:10:00Z", "tool_version": "0.1.0"}
  ],
  "results": [
    {"test": "seq", "title": "Sequential", "version": "1.0", "description": "Block Size: 1MB",
     "unit": "MB/s", "direction": "higher", "options": {},
     "entries": [
       {"identifier": "base", "mean": 100, "sd": 1, "se": 0.57735, "decimals": 0,
        "values": [100, 101, 99], "untrusted": false,
        "secondary": [{"name": "lat_p50", "unit": "us", "value": 50},
                      {"name": "lat_p99", "unit": "us", "value": 900}]},
       {"identifier": "new <b>", "mean": 120, "sd": 1, "se": 0.57735, "decimals": 0,
        "values": [120, 121, 119], "untrusted": false,
        "secondary": [{"name": "lat_p50", "unit": "us", "value": 40},
                      {"name": "lat_p99", "unit": "us", "value": 700}]}
     ]},
    {"test": "lat", "title": "Latency", "version": "1.0", "description": "",
     "unit": "Seconds", "direction": "lower", "options": {},
     "entries": [
       {"identifier": "base", "mean": 10, "sd": 0.5, "se": 0.288675, "decimals": 2,
        "values": [10, 10.5, 9.5], "untrusted": false, "secondary": []},
       {"identifier": "new <b>", "mean": 10.2, "sd": 0.2, "se": 0.11547, "decimals": 2,
        "values": [10.2, 10.4, 10.0], "untrusted": false, "secondary": []}
     ]},
    {"test": "only", "title": "Only base", "version": "1.0", "description": "",
     "unit": "ops/s", "direction": "higher", "options": {},
     "entries": [
       {"identifier": "base", "mean": 5, "sd": 0, "se": 0, "decimals": 0,
        "values": [5, 5], "untrusted": false, "secondary": []}
     ]}
  ]
}
EOF
RUNS=$T/files/runs.json

# ---- csv ----
check_exit "show --format csv" 0 "$SB" show btrfs --format csv
check "csv header" grep -qx 'test,title,version,description,identifier,measure,unit,direction,mean,sd,se,runs,untrusted,origin,source,rsd_pct,noisy,host_bound,host_reference' "$T/out"
# 12 results x 6 identifiers, one row each (imported: no secondary figures), plus the header.
if [ "$(wc -l <"$T/out")" -eq 73 ]; then ok "csv one row per figure"; else not_ok "csv one row per figure ($(wc -l <"$T/out") lines)"; fi
check "csv imported row: spread empty, 0 runs" \
    grep -qx 'sqlite,SQLite,3.8.10.2,Test Target: Default Test Directory,Single Disk,result,Seconds,lower,67.63,,,0,no,imported,SQLite 3.8.10.2,,,no,' "$T/out"
check "csv quotes fields with commas" grep -q ',"Test: 5000 Files, 1MB Size, 4 Threads",2-Disk RAID0,result,Files/s,higher,' "$T/out"
check_exit "csv of a file with runs" 0 "$SB" show "$RUNS" -f csv
check "csv headline row with SD, SE and runs" grep -qx 'seq,Sequential,1.0,Block Size: 1MB,new <b>,result,MB/s,higher,120,1,0.57735,3,no,measured,Sequential 1.0,0.83,no,no,' "$T/out"
check "csv secondary row" grep -qx 'seq,Sequential,1.0,Block Size: 1MB,new <b>,lat_p99,us,,700,,,,,measured,Sequential 1.0,,,,' "$T/out"

# ---- json ----
check_exit "show --format json" 0 "$SB" show "$RUNS" --format json
check "json is the result file" grep -q '"storbench-result"' "$T/out"

# ---- html and -o ----
mkdir -p "$T/pages"
check_exit "show --format html -o" 0 "$SB" show "$RUNS" --format html -o "$T/pages/runs.html"
check "html -o prints nothing" test ! -s "$T/out"
check "html page complete" grep -q '</html>' "$T/pages/runs.html"
check "html identifiers escaped" grep -q '<th scope="col">new &lt;b&gt;</th>' "$T/pages/runs.html"
if grep -q '<b>' "$T/pages/runs.html"; then not_ok "no raw identifier markup"; else ok "no raw identifier markup"; fi
check "html latency chart" grep -q '<svg class="latency"' "$T/pages/runs.html"
check "html differing row marked" grep -q '<tr class="differs"><th scope="row">Disk</th>' "$T/pages/runs.html"
if [ "$(ls "$T/pages")" = runs.html ]; then ok "-o leaves no temporary file"; else not_ok "-o leaves no temporary file ($(ls "$T/pages" | tr '\n' ' '))"; fi
echo "old contents" >"$T/pages/page.csv"
check_exit "-o replaces a file" 0 "$SB" show btrfs -f csv --output "$T/pages/page.csv"
if grep -q 'old contents' "$T/pages/page.csv" || [ "$(wc -l <"$T/pages/page.csv")" -ne 73 ]; then
    not_ok "-o replaced the whole file"; else ok "-o replaced the whole file"; fi
check_exit "-o into a missing directory" 1 "$SB" show btrfs -f html -o "$T/nowhere/page.html"
check_one_line "-o failure is one line" "nowhere"
check "-o failure leaves nothing" test ! -e "$T/nowhere"
check_exit "-o - is standard output" 0 "$SB" show btrfs -f csv -o -
check "-o - wrote to stdout" grep -q '^test,title' "$T/out"
check_exit "unknown format" 2 "$SB" show btrfs --format pdf
check_one_line "unknown format is one line" "pdf"

# ---- compare ----
check_exit "compare seed" 0 "$SB" compare btrfs
check "compare names the default base (the first identifier)" grep -qx 'Compared with: Single Disk (positive = better than it)' "$T/out"
check "compare lower is better: slower is negative" grep -qx '2-Disk RAID0 ............................. 75.98  -11.0% ?' "$T/out"
check "compare lower is better: faster is positive" grep -qx '2-Disk RAID1 + LZO + Nobarrier ........... 58.84  +14.9% ?' "$T/out"
check "compare higher is better" grep -qx '2-Disk RAID1 ............................. 65.65  -15.1% ?' "$T/out"
if [ "$(grep -c ' over 12 tests: 0 better, 0 worse, 0 not significant, 12 unknown$' "$T/out")" -eq 5 ]; then
    ok "compare geometric mean line per identifier"; else not_ok "compare geometric mean line per identifier"; fi
check_exit "compare --base" 0 "$SB" compare btrfs --base "2-Disk RAID1"
check "compare --base is the base" grep -qx '2-Disk RAID1 ............................. 65.65  base' "$T/out"

check_exit "compare with runs" 0 "$SB" compare "$RUNS"
check "significant difference unmarked" grep -qx 'new <b> . 120  +20.0%' "$T/out"
check "difference inside the spread marked ~" grep -qx 'new <b> . 10.20  -2.0% ~' "$T/out"
check "geometric mean over shared tests" grep -qx 'new <b> . +8.5% (x1.08) over 2 tests: 1 better, 0 worse, 1 not significant' "$T/out"
check_exit "compare -b the other way" 0 "$SB" compare "$RUNS" -b "new <b>"
check "reversed difference" grep -qx 'base .... 100  -16.7%' "$T/out"
check "no base figure said" grep -q 'no tests in common\|(no base figure)' "$T/out"

check_exit "compare unknown base" 2 "$SB" compare btrfs --base nobody
check_one_line "unknown base is one line" "nobody"
check_exit "compare missing file" 1 "$SB" compare no-such-result
check_one_line "missing file is one line" "no-such-result"
check_exit "compare without a name" 2 "$SB" compare
check_one_line "missing name is one line" "compare"
check_exit "compare bad option" 2 "$SB" compare btrfs --frobnicate
check_one_line "bad option is one line" "frobnicate"
check_exit "compare --help" 0 "$SB" compare --help
check "compare --help names --base" grep -q -- '--base LABEL' "$T/out"

finish
