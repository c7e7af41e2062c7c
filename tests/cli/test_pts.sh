#!/bin/bash
# PTS result files (composite.xml, docs/pts.md): the three real files in tests/data/pts/
# import (every result, or the unreadable ones named with their line), auto-detected or
# with --format pts-xml; --strict refuses a file with an unreadable result; malformed XML
# exits 2 with its line and leaves the result file as it was; show --format pts-xml and
# a re-import give exactly the same figures; a measured result's export loads back.
. "$(dirname "$0")/lib.sh"
DATA=$SRC/tests/data/pts

# The figures of a result file, exactly: per result its chart keys, per entry mean, sd,
# values and decimals (jq prints doubles with 17 digits).
figures() {
    "$SB" show "$1" --format json | jq -S '[.results[] | {test, title, version, description,
        unit, direction, e: [.entries[] | {identifier, mean, sd, values, decimals}]}]'
}

for f in "$DATA"/*.xml; do
    n=$(basename "$f" .xml)
    check_exit "import $n" 0 "$SB" import "$f" --result "$T/$n.json"
    have=$(jq '.results | length' "$T/$n.json")
    want=$(grep -c '<Result>' "$f")
    named=$(grep -c "no figure of .* could be read; skipped" "$T/err")
    # Every result imported or named as skipped, with its line.
    check "import $n: $have results + $named named = $want" test $((have + named)) -eq "$want"
    if [ "$named" -eq 0 ] || grep -Eq "$n.xml:[0-9]+: " "$T/err"; then ok "import $n: skips name a line"
    else not_ok "import $n: skips name a line ($(head -c 200 "$T/err"))"; fi
    check_exit "import $n --format pts-xml" 0 "$SB" import "$f" --format pts-xml --result "$T/$n-f.json"
    check "auto-detect = --format pts-xml ($n)" cmp -s <(figures "$T/$n.json") <(figures "$T/$n-f.json")
done

G=$DATA/gvno2-resultname.xml
check "gvno2: 135 of 142 results" test "$(jq '.results | length' "$T/gvno2-resultname.json")" -eq 135
# The 7 without a value (PTS: "The test run did not produce a result"), each by its line.
"$SB" import "$G" --result "$T/again.json" 2>"$T/err" >/dev/null
for line in 1208 1226 1244 1262 1582 2221 2273; do
    check "gvno2: result at line $line named" grep -q "gvno2-resultname.xml:$line: no figure" "$T/err"
done
# "Test Install Size" has three entries of one identifier: the first is kept.
check "gvno2: repeated identifier warned" grep -q "gvno2-resultname.xml:74: a second <Entry> for 'GVNO2'" "$T/err"
check "gvno2: the first install size kept" test "$(jq '[.results[] | select(.title == "FFTW" and
    .description == "Test Install Size") | .entries[0].mean][0]' "$T/gvno2-resultname.json")" = 128444
# A figure with its runs: SD and N from RawString (pts/fftw 1D FFT Size 32: see the file).
jq -e '.results[] | select(.description == "Build: Stock - Size: 1D FFT Size 32") |
    .entries[0] | .values | length == 3' "$T/gvno2-resultname.json" >/dev/null
check "gvno2: RawString gives the runs" test $? -eq 0
jq -e '.results[] | select(.description == "Build: Stock - Size: 1D FFT Size 32") |
    .entries[0] | .sd > 0 and .origin == "imported"' "$T/gvno2-resultname.json" >/dev/null
check "gvno2: an imported figure with its SD" test $? -eq 0
jq -e '.results[] | select(.description == "Build: Stock - Size: 1D FFT Size 32") |
    .test == "" and .pts.identifier == "pts/fftw-1.2.0"' "$T/gvno2-resultname.json" >/dev/null
check "gvno2: an outside result (no storbench test) has test \"\" and its profile" test $? -eq 0

# --strict: the file with unreadable results is refused as a whole; a clean one imports.
cp "$T/nogvno3-simdjson.json" "$T/keep.json"
check_exit "--strict refuses gvno2" 1 "$SB" import "$G" --strict --result "$T/keep.json"
check_one_line "--strict: one line with the line" "line 74"
check "--strict: the result file unchanged" cmp -s "$T/keep.json" "$T/nogvno3-simdjson.json"
check_exit "--strict on a clean file" 0 "$SB" import "$DATA/nogvno3-simdjson.xml" --strict \
    --result "$T/strict.json"

# Malformed XML: exit 2, its line, nothing changed.
head -c 30000 "$G" >"$T/broken.xml"
check_exit "malformed XML exits 2" 2 "$SB" import "$T/broken.xml" --result "$T/keep.json"
check_one_line "malformed XML: one line" "malformed XML"
check "malformed XML: names a line" grep -Eq "broken.xml: line [0-9]+: malformed XML" "$T/err"
check "malformed XML: the result file unchanged" cmp -s "$T/keep.json" "$T/nogvno3-simdjson.json"
sed 's|</Title>|</Titel>|' "$DATA/nogvno3-simdjson.xml" >"$T/mismatch.xml"
check_exit "mismatched tag exits 2" 2 "$SB" import "$T/mismatch.xml" --result "$T/keep.json"
check "mismatched tag: line 5" grep -q "line 5: malformed XML" "$T/err"

# Export, re-import: the same figures, the same profiles.
for f in "$DATA"/*.xml; do
    n=$(basename "$f" .xml)
    check_exit "show $n --format pts-xml" 0 "$SB" show "$T/$n.json" --format pts-xml -o "$T/$n-out.xml"
    check_exit "re-import $n" 0 "$SB" import "$T/$n-out.xml" --strict --result "$T/$n-2.json"
    check "round trip $n: the same figures" cmp -s <(figures "$T/$n.json") <(figures "$T/$n-2.json")
    check "round trip $n: the same systems" cmp -s \
        <(jq -S '.systems | map(del(.tool_version))' "$T/$n.json") \
        <(jq -S '.systems | map(del(.tool_version))' "$T/$n-2.json")
done
check "export keeps the pts/ identifier" grep -q "<Identifier>pts/simdjson-2.0.1</Identifier>" \
    "$T/nogvno3-simdjson-out.xml"
if command -v xmllint >/dev/null 2>&1; then
    check "export is well-formed XML" xmllint --noout "$T/gvno2-resultname-out.xml"
fi

# A measured result: storbench/TEST-VERSION, runs in RawString, and it loads back.
mkdir -p "$T/target"
check_exit "run dd (tiny)" 0 "$SB" run dd:bs=64k,count=4 --runs 2 --exact-runs --target "$T/target" \
    --result "$T/m.json" --identifier "tiny dd"
check_exit "show measured --format pts-xml" 0 "$SB" show "$T/m.json" --format pts-xml -o "$T/m.xml"
check "measured: storbench's test and version" grep -q "<Identifier>storbench/dd-[0-9.]*</Identifier>" "$T/m.xml"
check "measured: runs in RawString" grep -Eq "<RawString>[0-9.e+-]+:[0-9.e+-]+</RawString>" "$T/m.xml"
check_exit "measured export loads back" 0 "$SB" import "$T/m.xml" --strict --result "$T/m2.json"
check "measured: the same figures" cmp -s \
    <(jq -S '[.results[] | {description, unit, e: [.entries[] | {mean, sd, values}]}]' "$T/m.json") \
    <(jq -S '[.results[] | {description, unit, e: [.entries[] | {mean, sd, values}]}]' "$T/m2.json")

check_exit "show --format bogus names pts-xml" 2 "$SB" show "$T/m.json" --format bogus
check "show --format bogus: pts-xml listed" grep -q "pts-xml" "$T/err"
check_exit "import --format bogus" 2 "$SB" import "$G" --format bogus --result "$T/x.json"
check "import --format bogus: pts-xml listed" grep -q "pts-xml" "$T/err"
finish
