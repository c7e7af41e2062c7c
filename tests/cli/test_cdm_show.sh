#!/bin/bash
# `show` prints the CDM table for cdm results, identifiers side by side (issue 26), after
# the charts, under a fixed heading; a page without cdm figures has none; import of a page
# with the table reads the charts and stops at the heading.
. "$(dirname "$0")/lib.sh"
R=$T/r
mkdir -p "$R"
sys() { printf '{"identifier": "%s", "hardware": {"Processor": "P"}, "software": {"OS": "O"}, "timestamp": "", "tool_version": "0.1.0"}' "$1"; }
res() { # test mode desc then entries
    printf '{"test": "diskmark", "title": "CrystalDiskMark", "version": "", "description": "%s", "unit": "MB/s", "direction": "higher", "options": {"test": "%s", "mode": "%s"}, "entries": [%s]}' "$3" "$1" "$2" "$4"
}
ent() { printf '{"identifier": "%s", "origin": "measured", "mean": %s, "sd": 0, "se": 0, "values": [%s]}' "$1" "$2" "$2"; }
{
    printf '{"format": "storbench-result", "schema_version": 1, "title": "C", "description": "d", "systems": [%s, %s, %s], "results": [' \
        "$(sys 'NVMe Box')" "$(sys 'HDD')" "$(sys 'No CDM')"
    res seq1m-q8t1 read "Test: SEQ1M Q8T1 - Mode: Read" "$(ent 'NVMe Box' 3100.5), $(ent HDD 180.25)"; printf ', '
    res seq1m-q8t1 write "Test: SEQ1M Q8T1 - Mode: Write" "$(ent 'NVMe Box' 2900), $(ent HDD 170.75)"; printf ', '
    res rnd4k-q1t1 read "Test: RND4K Q1T1 - Mode: Read" "$(ent 'NVMe Box' 55.5)"; printf ', '
    printf '{"test": "dd", "title": "dd", "version": "", "description": "Test: Direct Write", "unit": "MB/s", "direction": "higher", "options": {}, "entries": [%s]}' "$(ent 'No CDM' 10)"
    printf ']}\n'
} >"$T/c.json"
check_exit "show a file with cdm figures" 0 "$SB" show "$T/c.json" --width 80
cp "$T/out" "$T/c.txt"
check "the table's heading" grep -qx 'CrystalDiskMark / KDiskMark table (MB/s), from the charts above:' "$T/c.txt"
check "identifiers side by side, under Read and under Write" \
    grep -qE '^ {13}NVMe Box +HDD +NVMe Box +HDD *$' "$T/c.txt"
check "SEQ1M Q8T1: both identifiers, read and write" \
    grep -qE '^SEQ1M Q8T1 +3100\.50 +180\.25 +2900\.00 +170\.75 *$' "$T/c.txt"
check "a figure missing is a dash" grep -qE '^RND4K Q1T1 +55\.50 +- +- +- *$' "$T/c.txt"
if grep -q 'No CDM' <(sed -n '/^CrystalDiskMark \/ KDiskMark table/,$p' "$T/c.txt"); then
    not_ok "an identifier without cdm figures is not in the table"
else ok "an identifier without cdm figures is not in the table"; fi
check "the table comes after the charts" \
    sh -c "tail -7 '$T/c.txt' | head -1 | grep -q 'CrystalDiskMark / KDiskMark table'"

check_exit "import a page with the table" 0 "$SB" import "$T/c.txt" --result back --results-dir "$R"
"$SB" show back --width 80 --results-dir "$R" >"$T/back.txt"
check "the imported page has the charts, not the table as a chart" \
    test "$("$SB" show back --format csv --results-dir "$R" | grep -c ',result,')" -eq 6

check_exit "seed page: show" 0 "$SB" import "$SEEDS"/001_*.txt --result seed --results-dir "$R"
"$SB" show seed --width 80 --results-dir "$R" >"$T/seed.txt"
if grep -q 'KDiskMark table' "$T/seed.txt"; then not_ok "no table without cdm figures"; else ok "no table without cdm figures"; fi
finish
