#!/bin/bash
# A name that is a file is that file: show, compare and merge read a file of that
# name in the current directory before looking among saved results; when both
# answer to the name the file is read and one line on stderr says so; a name
# that is only a saved result is still the saved result, and one that is
# neither is refused as before.
. "$(dirname "$0")/lib.sh"

R=$T/results
mkdir -p "$T/here" "$R"
# mkresult FILE TITLE IDENTIFIER VALUE: a result file of one dd figure.
mkresult() {
    cat >"$1" <<EOF
{"format": "storbench-result", "schema_version": 1, "title": "$2", "description": "",
 "systems": [{"identifier": "$3", "hardware": {"Processor": "X"}, "software": {"OS": "Debian"},
   "storage": {"Target": "/mnt/x"}, "timestamp": "2026-12-01T05:45:57Z", "tool_version": "0.1.0"}],
 "results": [{"test": "dd", "title": "dd", "version": "1.0", "description": "Test: Direct Write",
   "unit": "MB/s", "direction": "higher",
   "entries": [{"identifier": "$3", "mean": $4, "sd": 0, "se": 0, "decimals": 2}]}]}
EOF
}
mkresult "$T/here/r.json" "File Here" here-id 500
mkresult "$T/here/b.json" "Other File" other-id 250

cd "$T/here" || exit 1
# ---- only the file exists: it is read
check_exit "show r.json beside r.json" 0 "$SB" show r.json --results-dir "$R"
check "show r.json: the file's page" grep -q '^File Here$' "$T/out"
check "show r.json: nothing on stderr" test ! -s "$T/err"
check_exit "compare r.json beside r.json" 0 "$SB" compare r.json --results-dir "$R"
check "compare r.json: the file's identifier" grep -q 'here-id' "$T/out"

# ---- merge: inputs and the output may be files here
check_exit "merge m.json r.json b.json (files here)" 0 "$SB" merge m.json r.json b.json --results-dir "$R"
check "merge: the output is created in the results directory (no file here)" test -s "$R/m.json"
check_exit "merge r.json b.json: into the file here" 0 "$SB" merge r.json b.json --results-dir "$R"
check "merge into the file here: it holds both identifiers" \
    bash -c "grep -q here-id r.json && grep -q other-id r.json"

# ---- both a saved result and a file: the file, and one line saying so
mkresult "$R/r.json" "Saved One" saved-id 100
mkresult "$R/s.json" "Saved Only" saved-only 100
check_exit "show r.json with a saved r.json too" 0 "$SB" show r.json --results-dir "$R"
check "both: the file is shown" grep -q '^File Here$' "$T/out"
check_one_line "both: one line on stderr names the file taken" "reading the file ./r.json"
check "both: the line names the saved result" grep -q "$R/r.json" "$T/err"
check_exit "compare r.json with a saved r.json too" 0 "$SB" compare r.json --results-dir "$R"
check "compare: the file's identifier" grep -q 'here-id' "$T/out"
check_one_line "compare: one line on stderr" "reading the file"

# ---- a saved name only, and neither
check_exit "show s (saved only)" 0 "$SB" show s --results-dir "$R"
check "saved only: the saved page" grep -q '^Saved Only$' "$T/out"
check "saved only: nothing on stderr" test ! -s "$T/err"
check_exit "show nothing.json (neither)" 1 "$SB" show nothing.json --results-dir "$R"
check_one_line "neither: no result named" "no result named 'nothing.json'"
# a directory of that name is not a result file: the saved result is taken
mkdir -p "$T/here/s"
check_exit "show s with a directory s here" 0 "$SB" show s --results-dir "$R"
check "directory here: the saved page" grep -q '^Saved Only$' "$T/out"

finish
