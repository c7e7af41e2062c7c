#!/bin/bash
# pts-roundtrip — real Phoronix Test Suite on storbench's export: each PTS result
# file of tests/data/pts/ (and, with MEASURED=1, a tiny measured dd run) is imported
# by storbench, written back with `show --format pts-xml`, and given to PTS, whose
# `result-file-to-text` must print the same figures as `storbench show` of the same
# result; then `merge-results` of all of them must succeed. PTS is not packaged in
# Debian: point PTS_DIR at a checkout of github.com/phoronix-test-suite/phoronix-test-suite
# (never committed here) and install php-cli and php-xml. Not part of `make check`.
#
#   PTS_DIR=/tmp/pts-src bench/pts-roundtrip.sh
#   PTS_DIR=/tmp/pts-src KEEP_TEXT=tests/data/pts/text bench/pts-roundtrip.sh
#
# KEEP_TEXT=DIR keeps what PTS printed of each export, as DIR/export-NAME.txt: the pages
# tests/data/pts/text/ holds, which tests/cli/test_pts_text.sh reads in `make check`
# (where PTS cannot run) to check that PTS's view of the export has the same figures.
#
# PTS reads saved results from /var/lib/phoronix-test-suite/test-results as root, else
# ~/.phoronix-test-suite/test-results; the script adds sb-roundtrip-PID-* there and removes
# exactly those on exit (PTS's merge saves one more, merge-*, which it names: removed too).
# Exit: 0 all agree, 1 a difference or a PTS failure, 77 skipped (no PTS or no php).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$ROOT/build/storbench}
PTS_DIR=${PTS_DIR:-}
PTS=$PTS_DIR/phoronix-test-suite
if [ -z "$PTS_DIR" ] || [ ! -x "$PTS" ]; then echo "pts-roundtrip: skipped: set PTS_DIR to a PTS checkout" >&2; exit 77; fi
command -v php >/dev/null 2>&1 || { echo "pts-roundtrip: skipped: php-cli is not installed" >&2; exit 77; }
php -m | grep -qi simplexml || { echo "pts-roundtrip: skipped: php-xml is not installed" >&2; exit 77; }
if [ "$(id -u)" -eq 0 ]; then RES=/var/lib/phoronix-test-suite/test-results; else RES=$HOME/.phoronix-test-suite/test-results; fi
W=$(mktemp -d /var/tmp/pts-roundtrip.XXXXXX)
TAG=sb-roundtrip-$$
made=()
cleanup() {
    for d in "${made[@]}"; do rm -rf "${RES:?}/$d"; done
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
export PTS_SILENT_MODE=1
fail=0

# The figures of a page in the seed text format (PTS's and storbench's): "ident . value |".
bars() { sed -n 's/^.* \. \([0-9.e+-]*\) |.*$/\1/p' "$1"; }

inputs=("$ROOT"/tests/data/pts/*.xml)
if [ "${MEASURED:-0}" = 1 ]; then
    mkdir -p "$W/target"
    "$SB" run dd:bs=64k,count=16 --runs 2 --exact-runs --target "$W/target" --result "$W/measured.json" \
        --identifier "storbench dd" >/dev/null || { echo "pts-roundtrip: the dd run failed" >&2; exit 1; }
    inputs+=("$W/measured.json")
fi
names=()
for f in "${inputs[@]}"; do
    n=$(basename "$f"); n=${n%.*}
    json=$f
    if [ "${f%.xml}" != "$f" ]; then
        json=$W/$n.json
        "$SB" import "$f" --result "$json" 2>/dev/null >/dev/null || { echo "pts-roundtrip: $n: import failed" >&2; fail=1; continue; }
    fi
    d=$TAG-$n
    mkdir -p "$RES/$d" && made+=("$d")
    "$SB" show "$json" --format pts-xml -o "$RES/$d/composite.xml" || { fail=1; continue; }
    "$SB" show "$json" --width 80 >"$W/$n.sb.txt"
    if ! (cd "$W" && timeout 300 "$PTS" result-file-to-text "$d" </dev/null >"$W/$n.pts.txt" 2>&1); then
        echo "pts-roundtrip: $n: PTS result-file-to-text failed: $(tail -3 "$W/$n.pts.txt")" >&2; fail=1; continue
    fi
    # PTS prints figures at its own precision and rounds half up in decimal (PHP round():
    # 225.315 -> 225.32) where storbench's printf rounds the binary double (225.31): the
    # same figure may differ by one unit of the last digit PTS printed, never more.
    if paste -d' ' <(bars "$W/$n.pts.txt") <(bars "$W/$n.sb.txt") |
        awk '{ d = ($1 ~ /\./) ? length($1) - index($1, ".") : 0; u = 10 ^ -d
               x = $1 - $2; if (x < 0) x = -x; if (x > u * 1.000001) bad++; n++ }
             END { exit !(n > 0 && !bad) }'; then
        echo "pts-roundtrip: $n: PTS prints the same $(bars "$W/$n.pts.txt" | wc -l) figures"
    else
        echo "pts-roundtrip: $n: PTS and storbench disagree (see $W/$n.pts.txt, $W/$n.sb.txt)" >&2; fail=1
    fi
    [ -n "${KEEP_TEXT:-}" ] && [ "${f%.xml}" != "$f" ] && cp "$W/$n.pts.txt" "$KEEP_TEXT/export-$n.txt"
    names+=("$d")
done
before=$(ls "$RES")
if (cd "$W" && timeout 300 "$PTS" merge-results "${names[@]}" </dev/null >"$W/merge.txt" 2>&1); then
    merged=$(comm -13 <(echo "$before") <(ls "$RES") | grep '^merge-' | head -1)
    [ -n "$merged" ] && made+=("$merged")
    if [ -n "$merged" ] && [ -s "$RES/$merged/composite.xml" ]; then
        echo "pts-roundtrip: PTS merge-results of ${#names[@]} exports: $(grep -c '<Result>' "$RES/$merged/composite.xml") results"
    else
        echo "pts-roundtrip: PTS merge-results saved nothing" >&2; fail=1
    fi
else
    echo "pts-roundtrip: PTS merge-results failed: $(tail -3 "$W/merge.txt")" >&2; fail=1
fi
exit $fail
