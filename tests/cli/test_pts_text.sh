#!/bin/bash
# PTS's text pages (docs/text-format.md, "A result that cannot be read"): what
# `phoronix-test-suite result-file-to-text` printed of the real result files in
# tests/data/pts/ (tests/data/pts/text/, how they were made in its README) imports with
# every readable result, and each result, row or line it cannot read is skipped with one
# warning naming its line; --strict refuses the page instead (exit 1, nothing imported).
# The figures are the PTS XML import's, as PTS rounded them. The export-*.txt pages are
# what PTS printed of storbench's own `show --format pts-xml` export (bench/pts-roundtrip.sh,
# KEEP_TEXT): PTS read the export and printed the same figures. PTS itself is not in
# Debian and cannot be fetched here: with PTS_DIR (a checkout) and php-cli, this test
# also runs bench/pts-roundtrip.sh on the current build, else it says SKIP.
. "$(dirname "$0")/lib.sh"
DATA=$SRC/tests/data/pts
TXT=$DATA/text

# "key TAB mean TAB decimals" per figure, sorted: key = title, version, option line, unit,
# direction, identifier.
keyed() {
    jq -r '.results[] | . as $r | .entries[] |
        [$r.title, $r.version, $r.description, $r.unit, $r.direction, .identifier, .mean, .decimals] |
        "\(.[0:6] | join("|"))\t\(.[6])\t\(.[7])"' "$1" | sort
}
# Every figure of text page import $1 is the XML import $2's figure, rounded to the digits
# the page printed (PTS rounds half up in decimal: within half a unit of the last digit),
# and both have the same figures.
same_as_xml() {
    join -t $'\t' -j 1 <(keyed "$1") <(keyed "$2") >"$T/joined"
    [ "$(wc -l <"$T/joined")" -eq "$(keyed "$1" | wc -l)" ] &&
        [ "$(wc -l <"$T/joined")" -eq "$(keyed "$2" | wc -l)" ] &&
        awk -F'\t' '{ u = 10 ^ -$3; d = $2 - $4; if (d < 0) d = -d; if (d > u / 2 * 1.000001) { print; bad++ } }
            END { exit bad > 0 }' "$T/joined" >&2
}

for n in gvno2-resultname gvno3-compress-zstd nogvno3-simdjson; do
    "$SB" import "$DATA/$n.xml" --result "$T/$n-xml.json" >/dev/null 2>&1 || not_ok "XML import of $n"
done

# ---- the pages PTS printed of the original result files ----
for p in gvno2-resultname gvno3-compress-zstd nogvno3-simdjson gvno2-resultname-w120; do
    n=${p%-w120}
    check_exit "import PTS page $p" 0 "$SB" import "$TXT/$p.txt" --result "$T/$p.json"
    check "PTS page $p: the figures of the XML, as PTS printed them" same_as_xml "$T/$p.json" "$T/$n-xml.json"
    # PTS's "No Internet Connectivity After Wait" (printed before the page when offline)
    # is not the page's title: the title is the result file's.
    check "PTS page $p: the title is the page's, not PTS's warning" \
        test "$(jq -r .title "$T/$p.json")" = "$(jq -r .title "$T/$n-xml.json")"
    check "PTS page $p: the warning lines before the page named" \
        grep -q "$p.txt:3: lines 3 to 5, before the page's title .* (line 6), are not part of the page ('No Internet Connectivity After Wait'); skipped" "$T/err"
    # each warning is one line naming its file and line
    check "PTS page $p: every warning names its line" \
        test "$(grep -c "^storbench: warning: import: .*$p.txt:[0-9]*: .*; skipped$" "$T/err")" -eq "$(wc -l <"$T/err")"
done

G=$TXT/gvno2-resultname.txt
"$SB" import "$G" --result "$T/g.json" >/dev/null 2>"$T/err"
check "gvno2 page: 135 of 142 results, as the XML import" test "$(jq '.results | length' "$T/g.json")" -eq 135
# The 7 tests that gave no figure, by their lines: 4 OpenSSL results without a scale
# line (title and option line alone), FLAC without an option line, 2 Z3 results.
for at in "416: result 'OpenSSL 3.1: Algorithm: AES-128-GCM' has no '<Unit> > Higher Is Better' line and no rows" \
    "420: result 'OpenSSL 3.1: Algorithm: AES-256-GCM' has no" \
    "424: result 'OpenSSL 3.1: Algorithm: ChaCha20' has no" \
    "428: result 'OpenSSL 3.1: Algorithm: ChaCha20-Poly1305' has no" \
    "534: result 'FLAC Audio Encoding 1.4' has no rows" \
    "750: result 'Z3 Theorem Prover 4.12.1: SMT File: 1.smt2' has no rows" \
    "767: result 'Z3 Theorem Prover 4.12.1: SMT File: 2.smt2' has no rows"; do
    check "gvno2 page: line ${at%%:*} skipped and named" grep -qF "gvno2-resultname.txt:$at" "$T/err"
done
check "gvno2 page: 7 results and 1 heading skipped, 5 second rows" \
    test "$(grep -c 'has no\|before the page' "$T/err")" -eq 8 -a "$(grep -c 'has two rows' "$T/err")" -eq 5
# "Test Install Size" of FFTW has three rows of one identifier: the first is kept.
check "gvno2 page: the second and third install size rows named" grep -q \
    "gvno2-resultname.txt:34: 'GVNO2' has two rows in result 'FFTW 3.3.6: Test Install Size' (the first is kept); skipped" "$T/err"
check "gvno2 page: the first install size kept" test "$(jq '[.results[] | select(.title == "FFTW" and
    .description == "Test Install Size") | .entries[0].mean][0]' "$T/g.json")" = 128444

Z=$TXT/gvno3-compress-zstd.txt
check_exit "gvno3 page imports" 0 "$SB" import "$Z" --result "$T/z.json"
check "gvno3 page: the repeated identifier named with its line" grep -q \
    "gvno3-compress-zstd.txt:39: 'GVNO3' has two rows in result 'Zstd Compression 1.5.4: Test Install Size' (the first is kept); skipped" "$T/err"
check "gvno3 page: the first row kept" test "$(jq '.results[] | select(.description == "Test Install Size") |
    .entries[0].mean' "$T/z.json")" = 229036

# ---- --strict: the page is refused at the first thing it cannot read ----
cp "$T/nogvno3-simdjson-xml.json" "$T/keep.json"
cp "$T/keep.json" "$T/keep0.json"
check_exit "--strict refuses the gvno3 page" 1 "$SB" import "$Z" --strict --result "$T/keep.json"
check_one_line "--strict: one line, with the line" "line 3: lines 3 to 5"
check "--strict: the result file unchanged" cmp -s "$T/keep.json" "$T/keep0.json"
sed '1,5d' "$Z" >"$T/z-clean.txt" # without PTS's warning: the repeated row is next
check_exit "--strict refuses a second row of one identifier" 1 "$SB" import "$T/z-clean.txt" --strict --result "$T/keep.json"
check_one_line "--strict: the second row's line" "line 34: 'GVNO3' has two rows.*--strict: nothing imported"
sed '1,5d' "$G" >"$T/g-clean.txt"
"$SB" import "$T/g-clean.txt" --strict --result "$T/keep.json" >/dev/null 2>"$T/err"
check "--strict refuses a result with no rows" grep -q "line 411: result 'OpenSSL 3.1: Algorithm: AES-128-GCM' has no" "$T/err"
check "--strict: still unchanged" cmp -s "$T/keep.json" "$T/keep0.json"
# A page of PTS's layout with nothing wrong imports under --strict too.
sed '1,5d' "$TXT/nogvno3-simdjson.txt" >"$T/s-clean.txt"
check_exit "--strict on a clean PTS page" 0 "$SB" import "$T/s-clean.txt" --strict --result "$T/s.json"
check "clean page: nothing skipped" test ! -s "$T/err"
# A last result without rows is where a page cut short shows: refused, whatever --strict says.
printf 'T\nD\n\n\nA: \n\n\tProcessor: X\n\n\tOS: Y\n\n\nFoo 1.0\nOpt: a\n\n\nFoo 1.0\nOpt: b\nMB/s > Higher Is Better\n\n' >"$T/none.txt"
check_exit "a page whose last result has no rows: exit 1" 1 "$SB" import "$T/none.txt" --result "$T/none.json"
check "last result without rows: said with its line" grep -q "line 16: result 'Foo 1.0: Opt: b' has no rows" "$T/err"
check "last result without rows: nothing written" test ! -e "$T/none.json"

# ---- PTS's pages of storbench's own export: PTS read it, the same figures ----
for n in gvno2-resultname gvno3-compress-zstd nogvno3-simdjson; do
    # PTS said "Network Communication Is Disabled ..." before the page (it ran offline):
    # --strict refuses that; without it, the page imports with nothing else skipped
    check_exit "--strict: PTS's line before the export's page ($n)" 1 "$SB" import "$TXT/export-$n.txt" \
        --strict --result "$T/e-$n.json"
    check_exit "import PTS's page of the export of $n" 0 "$SB" import "$TXT/export-$n.txt" --result "$T/e-$n.json"
    check "export of $n: one warning, the lines before the page" test "$(wc -l <"$T/err")" -eq 1
    check "PTS's page of the export of $n: the figures of the XML" same_as_xml "$T/e-$n.json" "$T/$n-xml.json"
done

# ---- real PTS on the current build's export, where PTS is at hand ----
if [ -n "${PTS_DIR:-}" ] && [ -x "$PTS_DIR/phoronix-test-suite" ] && command -v php >/dev/null 2>&1; then
    check_exit "bench/pts-roundtrip.sh with PTS in $PTS_DIR" 0 env STORBENCH="$SB_BIN" PTS_DIR="$PTS_DIR" \
        bash "$SRC/bench/pts-roundtrip.sh"
else
    echo "ok # SKIP real PTS on the export: set PTS_DIR to a checkout of phoronix-test-suite and install php-cli php-xml (bench/pts-roundtrip.sh)"
fi
finish
