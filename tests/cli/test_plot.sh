#!/bin/bash
# storbench plot: each chart's SVG against a golden of its structure (the sequence
# of elements and classes, not pixels: tests/data/plot/*.structure, regenerated with
# STORBENCH_PLOT_GOLDEN=1), well-formed XML, titles, legends, units, a log axis where
# the values span decades, "not run" bars and the caption; a PNG that is a PNG of
# the SVG's size; every option; and the refusals (unknown chart, metric, option or
# extension: one line, exit 2, nothing written, an existing picture kept).
. "$(dirname "$0")/lib.sh"

D=$SRC/tests/data/plot
mkdir -p "$T/w" "$T/results"
cd "$T/w" || exit 1
cp "$D/a.json" "$D/b.json" "$D/sweep.json" "$D/sweep_run.json" .

# The structure of an SVG: one line per element, its name and class.
structure() { grep -oE '<(svg|g|rect|text|line|path|circle)( class="[^"]*")?' "$1" | sed 's/^<//'; }
well_formed() { python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"; }
golden() { # golden NAME FILE.svg
    if [ "${STORBENCH_PLOT_GOLDEN:-}" = 1 ]; then structure "$2" >"$D/$1.structure"; fi
    if diff <(structure "$2") "$D/$1.structure" >"$T/diff"; then ok "$1: structure is the golden's"
    else not_ok "$1: structure differs from $D/$1.structure: $(head -5 "$T/diff" | tr '\n' ' ')"; fi
}
count() { grep -o -- "$1" "$2" | wc -l; }

# ---- bars: two files side by side (cli/inputs.h), tests only one has are "not run"
check_exit "plot a.json b.json -o bars.svg" 0 "$SB" plot a.json b.json -o bars.svg
check "bars: nothing on stdout or stderr" test ! -s "$T/out" -a ! -s "$T/err"
check "bars: well-formed XML" well_formed bars.svg
golden bars bars.svg
check "bars: the title" grep -q '<text class="title"[^>]*>Disks</text>' bars.svg
check "bars: a legend item per identifier" test "$(count 'class="legend-item"' bars.svg)" -eq 2
check "bars: a panel per result" test "$(count '<g class="result"' bars.svg)" -eq 3
check "bars: four bars with figures" test "$(count '<rect class="bar" ' bars.svg)" -eq 4
check "bars: a bar names its identifier" grep -q '<rect class="bar" data-identifier="hdd" ' bars.svg
check "bars: two 'not run' rows" test "$(count '>not run</text>' bars.svg)" -eq 2
check "bars: axis labels with the unit and direction" test "$(count '>MB/s, higher is better' bars.svg)" -eq 3
check "bars: log axis where 3.5 and 500 share a panel" \
    grep -q '<g class="x-axis" data-log="1">' bars.svg
check "bars: log axis only there" test "$(count 'data-log="1"' bars.svg)" -eq 1
check "bars: the log axis is labelled so" grep -q 'higher is better (log scale)</text>' bars.svg
check "bars: caption names machine, target and version" \
    grep -q '<text class="caption"[^>]*>ssd: AMD EPYC 7B13, target /mnt/ssd, storbench 0.1.0; hdd: Intel Xeon E5, target /mnt/hdd, storbench 0.1.0' bars.svg
check "bars: the value at the bar" grep -q '>3.50</text>' bars.svg
check "bars: short identifiers, bars start at 80 px" grep -q '<rect class="bar" data-identifier="ssd" x="80" ' bars.svg
sed 's/"hdd"/"2-Disk RAID1 + LZO + Nobarrier + Noatime"/g' b.json >long.json
"$SB" plot a.json long.json -o long.svg
check "bars: a long identifier moves the bars right of its label (18 + 40 x 7 px)" \
    grep -q '<rect class="bar" data-identifier="ssd" x="298" ' long.svg
check "bars: width 900 by default" grep -q '<svg [^>]*width="900"' bars.svg

# --y a secondary figure; --width; --chart bars said explicitly; a saved name
cp a.json "$T/results/saved.json"
check_exit "plot saved --results-dir --chart bars --y seconds --width 600" 0 \
    "$SB" plot saved --results-dir "$T/results" --chart bars --y seconds --width 600 -o secs.svg
check "--y seconds: the axis names the metric and its unit" grep -q '>seconds (s)</text>' secs.svg
check "--width 600" grep -q '<svg [^>]*width="600" height="[0-9]*" viewBox="0 0 600 ' secs.svg
check "saved name: its title" grep -q '>Disks</text>' secs.svg

# ---- lines: iops against iodepth, a line per numjobs and identifier, log y axis
check_exit "plot sweep.json --x iodepth --y iops --series numjobs -o lines.svg" 0 \
    "$SB" plot sweep.json --x iodepth --y iops --series numjobs -o lines.svg
check "lines: well-formed XML" well_formed lines.svg
golden lines lines.svg
check "lines: a line per numjobs and identifier" test "$(count '<g class="series"' lines.svg)" -eq 4
check "lines: legend says which" grep -q '>nvme, numjobs=2</text>' lines.svg
check "lines: 5 points a line" test "$(count '<circle class="point"' lines.svg)" -eq 20
check "lines: x ticks are the option's values in order" \
    test "$(grep -oE '<text class="tick"[^>]*text-anchor="middle">[0-9]+</text>' lines.svg | sed 's/<[^>]*>//g' | tr '\n' ' ')" = "1 4 16 64 256 "
check "lines: x axis label is the option" grep -q '<text class="axis-label"[^>]*>iodepth</text>' lines.svg
check "lines: y axis: metric, unit, log scale" grep -q '>iops (IOPS), log scale</text>' lines.svg
check "lines: --x alone is a lines chart, a line per identifier" \
    bash -c '"$0" plot sweep.json --x iodepth -o l2.svg && test "$(grep -c "<g class=\"series\"" l2.svg)" -eq 2' "$SB"

# ---- heatmap: p99 latency over iodepth x numjobs, a panel per identifier
check_exit "plot --chart heatmap --x iodepth --series numjobs --y lat_p99" 0 \
    "$SB" plot sweep.json --chart heatmap --x iodepth --series numjobs --y lat_p99 -o heat.svg
check "heatmap: well-formed XML" well_formed heat.svg
golden heatmap heat.svg
check "heatmap: a panel per identifier, 2 rows x 5 columns" \
    test "$(count '<g class="heatmap" data-rows="2" data-columns="5">' heat.svg)" -eq 2
check "heatmap: 20 cells with values" test "$(count '<rect class="cell" ' heat.svg)" -eq 20
check "heatmap: a colour key under each panel" test "$(count '<g class="colour-key" data-steps="48">' heat.svg)" -eq 2
check "heatmap: the key's ticks are values of the scale (a decade on its log scale)" \
    grep -q '<text class="tick" [^>]*>100</text>' heat.svg
check "heatmap: the panel names identifier, metric and unit" grep -q '>sata: lat_p99 (us), log scale</text>' heat.svg

# ---- a sweep without --chart: lines over the options it varies (iodepth on x, a line per
# numjobs), IOPS on y
check_exit "plot sweep.json (a sweep, no --chart)" 0 "$SB" plot sweep.json -o sweep.svg
check "sweep default: well-formed XML" well_formed sweep.svg
golden sweep_default sweep.svg
check "sweep default: a line per numjobs and identifier" test "$(count '<g class="series"' sweep.svg)" -eq 4
check "sweep default: x is iodepth" grep -q '<text class="axis-label"[^>]*>iodepth</text>' sweep.svg
check "sweep default: y is IOPS" grep -q '>iops (IOPS), log scale</text>' sweep.svg
check "sweep default: --y still chooses" bash -c '"$0" plot sweep.json --y lat_p99 -o s2.svg && grep -q ">lat_p99 (us)" s2.svg' "$SB"
check "sweep default: --series numjobs given, x is the next option" \
    bash -c '"$0" plot sweep.json --series iodepth -o s3.svg && grep -q "<text class=\"axis-label\"[^>]*>numjobs</text>" s3.svg' "$SB"
check "a page that is no sweep keeps its bars" bash -c '"$0" plot a.json -o s4.svg && grep -q "<g class=\"result\"" s4.svg' "$SB"

# ---- percentiles: a row per configuration, a bar per percentile (a real sweep's result)
check_exit "plot --chart percentiles" 0 "$SB" plot sweep_run.json --chart percentiles -o pct.svg
check "percentiles: well-formed XML" well_formed pct.svg
golden percentiles pct.svg
check "percentiles: a row per cell, 5 bars each" test "$(count '<g class="config" data-bars="5">' pct.svg)" -eq 4
check "percentiles: rows named by the swept options" grep -q '>iodepth=4, numjobs=2</text>' pct.svg
check "percentiles: legend p50 .. p99.99" test "$(grep -o '<g class="legend-item"' pct.svg | wc -l)" -eq 5
check "percentiles: the axis names latency and its unit" grep -q '>completion latency (us)' pct.svg

# ---- series: a run's per-interval figures against time, a line per configuration
check_exit "plot --chart series" 0 "$SB" plot sweep_run.json --chart series -o ser.svg
check "series: well-formed XML" well_formed ser.svg
golden series ser.svg
check "series: a line per cell with its 4 points" test "$(count '<g class="series" data-series="[0-3]" data-points="4">' ser.svg)" -eq 4
check "series: x is time" grep -q '>seconds into the measurement</text>' ser.svg
check "series: y is IOPS by default" grep -q '>iops (IOPS)</text>' ser.svg
check_exit "plot --chart series --y lat_p99" 0 "$SB" plot sweep_run.json --chart series --y lat_p99 -o ser99.svg
check "series --y lat_p99: the axis says so" grep -q '>lat_p99 (us)' ser99.svg
check_exit "plot --chart series -o ser.png" 0 "$SB" plot sweep_run.json --chart series -o ser.png
check "series png: PNG magic bytes" test "$(head -c 8 ser.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
check_exit "plot sweep_run.json -o sweep.png" 0 "$SB" plot sweep_run.json -o sweep.png
check "sweep png: PNG magic bytes" test "$(head -c 8 sweep.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a

# ---- PNG: rendered from the SVG by librsvg
check_exit "plot -o bars.png" 0 "$SB" plot a.json b.json -o bars.png
check "png: nonzero size" test -s bars.png
check "png: PNG magic bytes" test "$(head -c 8 bars.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
svg_h=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' bars.svg)
check "png: IHDR is the SVG's 900 x $svg_h" \
    test "$(od -An -tu1 -j16 -N8 bars.png | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')" = "900 $svg_h"
check_exit "plot -o heat.PNG (any case)" 0 "$SB" plot sweep.json --chart heatmap --x iodepth --series numjobs -o heat.PNG
check "heat.PNG is a PNG" test "$(head -c 4 heat.PNG | od -An -tx1 | tr -d ' \n')" = 89504e47

# ---- refusals: one line, exit 2, nothing written
refused() { # refused NAME WORD ARGS...: exit 2, one line with WORD, out.svg/out.png not made
    local n=$1 w=$2; shift 2
    rm -f out.svg out.png
    check_exit "$n: exit 2" 2 "$SB" plot "$@"
    check_one_line "$n: one line" "$w"
    check "$n: nothing written" test ! -e out.svg -a ! -e out.png
}
refused "unknown chart" "unknown chart 'pie'" a.json --chart pie -o out.svg
refused "a metric the result lacks" "no figure has the metric 'iops'" a.json --y iops -o out.svg
refused "unknown extension" "unknown output extension" a.json -o out.jpg
refused "no -o" "-o FILE.svg" a.json
refused "an option no result has" "no result has the option 'qd'" sweep.json --x qd -o out.png
refused "heatmap without --series" "needs --series" sweep.json --chart heatmap --x iodepth -o out.svg
refused "lines without --x" "needs --x" sweep.json --chart lines -o out.svg
refused "--x with bars" "--chart lines or heatmap" sweep.json --chart bars --x iodepth -o out.svg
refused "--width out of range" "--width" a.json --width 100 -o out.svg
refused "no input" "name a result file" -o out.svg
refused "percentiles without latency figures" "no figure has latency percentiles" a.json --chart percentiles -o out.svg
refused "series without a time series" "no figure holds a time series" sweep.json --chart series -o out.svg
refused "series of an unknown metric" "not 'nope'" sweep_run.json --chart series --y nope -o out.svg
refused "--x with percentiles" "--chart lines or heatmap" sweep_run.json --chart percentiles --x iodepth -o out.svg
check_exit "a missing input: exit 1" 1 "$SB" plot nothing.json -o out.svg
check "a missing input: nothing written" test ! -e out.svg

# An existing picture is replaced only by a complete one: a refused plot keeps it.
cp bars.svg keep.svg
check_exit "refused over an existing picture" 2 "$SB" plot a.json --y nope -o keep.svg
check "the existing picture is kept" cmp -s keep.svg bars.svg
check_exit "a plot over it replaces it" 0 "$SB" plot a.json -o keep.svg
check "replaced: now a.json's page alone" test "$(grep -c '<g class="result"' keep.svg)" -eq 2
check "no temporary file left beside it" test "$(ls -A | grep -c '^\.')" -eq 0

finish
