#!/bin/bash
# Option lines name the overrides (issue 26; docs/result-format.md, "Option lines name the
# overrides"): a full-scale run that sets hidden options (size, runtime, ...) away from
# their defaults ends its option line in "(size=8m, runtime=1)"; an option given with its
# default is not named; two runs of different sizes are two charts that say so; a short
# run still joins an imported seed page's chart (charts join without the override part),
# and a page read back keeps the part and joins the same runs again.
. "$(dirname "$0")/lib.sh"

R=$T/results
W=$T/target
mkdir -p "$W"
export COLUMNS=80
desc() { "$SB" show "$1" --results-dir "$R" --format json | jq -r "$2"; }
fio() { "$SB" run fio -o type=randwrite -o runtime=1 -o ramp=0 -o startdelay=0 -n 1 --exact-runs \
    -t "$W" --results-dir "$R" "$@"; }
OPTS='Type: Random Write - IO Engine: POSIX AIO - Buffered: No - Direct: Yes - Block Size: 4KB - Disk Target: Default Test Directory'
SEED_LINE="$OPTS - Result: MB/s" # the chart's line: the options, then the measure

check_exit "a short fio run" 0 fio -o size=8m -o iodepth=64 -r own -i one
check "run prints the overrides on its line" grep -qF "[$OPTS (size=8m, startdelay=0, ramp=0, runtime=1)]" "$T/out"
check "the option line names each hidden option away from its default, not iodepth=64 (its default)" \
    test "$(desc own '.results[0].description')" = "$SEED_LINE (size=8m, startdelay=0, ramp=0, runtime=1)"
"$SB" show own --results-dir "$R" --width 80 >"$T/own.txt"
check "the text page shows it" grep -qxF "$SEED_LINE (size=8m, startdelay=0, ramp=0, runtime=1)" "$T/own.txt"

# Another size, another identifier: a chart of its own, whose line says its size.
check_exit "the same test at 16m" 0 fio -o size=16m -r own -i two
check "two charts" test "$(desc own '.results | length')" -eq 2
check "the second chart says 16m" \
    test "$(desc own '.results[1].description')" = "$SEED_LINE (size=16m, startdelay=0, ramp=0, runtime=1)"
check "each chart one figure" test "$(desc own '[.results[].entries | length] | join(",")')" = "1,1"

# The page read back keeps the override part and joins a new run of the same options.
check_exit "import the page" 0 "$SB" import "$T/own.txt" --result back --results-dir "$R"
check "imported option line kept verbatim" \
    test "$(desc back '.results[0].description')" = "$SEED_LINE (size=8m, startdelay=0, ramp=0, runtime=1)"
check_exit "a run into the read-back page" 0 fio -o size=8m -r back -i three
check "it joins the chart with its overrides" test "$(desc back '.results[0].entries | length')" -eq 2

# A short run still lands in the seed page's chart (one chart, 6 imported + 1 measured).
check_exit "import seed 001" 0 "$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result mix --results-dir "$R"
check_exit "a short run into the seed's file" 0 fio -o size=8m -r mix -i here
check "one chart for the seed's random write and the short run" test "$(desc mix "[.results[] |
    select(.test == \"fio\" and (.description | startswith(\"Type: Random Write\")))] | length")" -eq 1
check "that chart keeps the seed's line, with 7 figures" test "$(desc mix "[.results[] |
    select(.description == \"$SEED_LINE\") | .entries | length] | .[0]")" -eq 7
check "the run's overrides are in the chart's options" test "$(desc mix "[.results[] |
    select(.description == \"$SEED_LINE\") | .options.size] | .[0]")" = 8m
finish
