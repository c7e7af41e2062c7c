#!/bin/bash
# A sweep's charts on the HTML page in a real browser: `show --format html` of a real
# sweep's result (tests/data/plot/sweep_run.json, iodepth 1,4 x numjobs 1,2) opened in
# headless Chromium: the DOM after scripts ran has the sweep section with its two inline
# charts (lines, percentiles), their axes named (iodepth, iops (IOPS), completion
# latency), a line per numjobs and a row per cell; the page counted no errors; a
# screenshot is a PNG with more than a blank page's worth of pixels. The page of a result
# that is no sweep has no such section. Without Chromium the checks are skipped.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
cp "$SRC/tests/data/plot/sweep_run.json" "$SRC/tests/data/plot/a.json" "$T/"
check_exit "show sweep_run.json --format html -o" 0 "$SB" show "$T/sweep_run.json" --format html -o "$T/page.html"
check "the page has the sweep section" grep -q '<section class="sweep" id="sweep">' "$T/page.html"
check "two inline charts, no XML declaration inside the page" \
    test "$(grep -c '<figure class="sweep-chart"' "$T/page.html")" -eq 2 -a "$(grep -c '<?xml' "$T/page.html")" -eq 0
check "the charts' style is scoped to them" bash -c '! grep -q "<style>text{" "$0"' "$T/page.html"
check_exit "show a.json --format html (no sweep)" 0 "$SB" show "$T/a.json" --format html -o "$T/a.html"
check "no sweep section on a page that is no sweep" bash -c '! grep -q "class=\"sweep\"" "$0"' "$T/a.html"

if [ -z "$CHROMIUM" ]; then
    for n in "dom dumped" "no page errors" "the lines chart names its axes" "a line per numjobs" \
             "the percentiles chart names its axis" "a row per cell" "screenshot"; do
        echo "ok $n # skip chromium not installed"
    done
    finish
fi

browser() {
    local profile
    profile=$(mktemp -d "$T/profile.XXXXXX")
    HOME=$T XDG_CONFIG_HOME=$T/config XDG_CACHE_HOME=$T/cache \
        timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --disable-extensions --user-data-dir="$profile" "$@"
}
browser --dump-dom "file://$T/page.html" >"$T/dom.html" 2>"$T/chrome.log"
check "dom dumped" grep -q '</html>' "$T/dom.html"
check "no page errors" grep -q '<html lang="en" data-errors="0"' "$T/dom.html"
# the sweep section's part of the DOM
sed -n '/<section class="sweep"/,/<\/section>/p' "$T/dom.html" >"$T/sweep.html"
check "the lines chart names its axes" \
    bash -c 'grep -q "<text class=\"axis-label\"[^>]*>iodepth</text>" "$0" && grep -q ">iops (IOPS)</text>" "$0"' "$T/sweep.html"
check "a line per numjobs" test "$(grep -c '<g class="series"' "$T/sweep.html")" -eq 2
check "the percentiles chart names its axis" grep -q '>completion latency (us)' "$T/sweep.html"
check "a row per cell" test "$(grep -c '<g class="config"' "$T/sweep.html")" -eq 4
browser --hide-scrollbars --window-size=1000,1400 --screenshot="$T/page.png" "file://$T/page.html" \
    >/dev/null 2>"$T/shot.log"
if [ "$(head -c 8 "$T/page.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
   [ "$(wc -c <"$T/page.png")" -gt 20000 ]; then ok "screenshot"
else not_ok "screenshot ($(tail -c 300 "$T/shot.log"))"; fi
[ -n "${STORBENCH_KEEP_SCREENSHOT:-}" ] && cp "$T/page.png" "$STORBENCH_KEEP_SCREENSHOT"
finish
