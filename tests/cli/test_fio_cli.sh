#!/bin/bash
# CLI tests of fio's command line in `storbench io` (src/cli/io.c, io_status.c,
# io_showcmd.c; src/io/run/live.c): --status-interval prints a full report per interval
# in every format selected (JSON one whole object each, as fio 3.33 prints them, compared
# with fio's count and keys), the figures cumulative; --eta's progress line goes to
# standard error, never into a JSON standard output, and without a terminal only with
# --eta=always; --minimal is terse; --showcmd prints fio's line for a job file (fio's
# own, compared); --max-jobs and --warnings-fatal refuse; --output FILE holds the
# interval reports and the final one; a failing job leaves standard output valid JSON;
# bad values exit 2 with one line. Runs of 2-3 s; without fio the comparisons skip.
. "$(dirname "$0")/lib.sh"

if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    M=$(mktemp -d /dev/shm/sbcli.XXXXXX)
    trap 'rm -rf "$M" "$T"' EXIT
else
    M="$T/m"
    mkdir -p "$M"
fi
JOB=(--name=t --filename="$M/f" --size=1m --bs=4k --rw=randread)
TIMED=("${JOB[@]}" --runtime=3 --time_based)
have_fio=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1

# The JSON documents of a stream, one line each ("" when one does not parse).
docs() { python3 -c '
import json, sys
t = sys.stdin.read(); d = json.JSONDecoder(); i = 0
while True:
    while i < len(t) and t[i].isspace(): i += 1
    if i >= len(t): break
    try: o, i = d.raw_decode(t, i)
    except ValueError: print("BROKEN"); break
    print(json.dumps(o))' <"$1"; }
jobkeys() { docs "$1" | jq -c '[.jobs[0] | keys[]] | sort'; }

# ---- --status-interval ----
check_exit "status-interval json runs" 0 "$SB" io "${TIMED[@]}" --status-interval=1 --output-format=json
cp "$T/out" "$T/sj"
n=$(docs "$T/sj" | grep -vc BROKEN)
check "status-interval: 3 interval reports and the final one, each whole ($n)" [ "$n" -eq 4 ]
docs "$T/sj" | grep -q BROKEN && not_ok "status-interval: a document does not parse" || ok "status-interval: every document parses"
b=$(docs "$T/sj" | jq -s '[.[].jobs[0].read.io_bytes] | (. == sort) and (.[0] > 0)')
check "status-interval: the figures are cumulative (io_bytes grows)" [ "$b" = true ]
r=$(docs "$T/sj" | jq -s '[.[].jobs[0].read.runtime] | .[0] < .[1] and .[1] < .[2]')
check "status-interval: runtime grows interval by interval" [ "$r" = true ]
check_exit "status-interval normal,terse runs" 0 "$SB" io "${JOB[@]}" --runtime=2 --time_based \
    --status-interval=1 --output-format=normal,terse
check "status-interval: normal once per report" [ "$(grep -c '^Run status group 0' "$T/out")" -eq 3 ]
check "status-interval: terse once per report" [ "$(grep -c '^3;' "$T/out")" -eq 3 ]
check_exit "status-interval --output FILE" 0 "$SB" io "${JOB[@]}" --runtime=2 --time_based \
    --status-interval=1 --output-format=json --output "$T/o.json"
check "status-interval --output: nothing on stdout" [ ! -s "$T/out" ]
check "status-interval --output: the interval reports and the final in the file" \
    [ "$(docs "$T/o.json" | grep -vc BROKEN)" -eq 3 ]
printf '[a]\nrw=read\nsize=1m\nfilename=%s/a\nruntime=2\ntime_based\n[b]\nrw=randread\nsize=1m\nfilename=%s/b\nruntime=2\ntime_based\n' \
    "$M" "$M" >"$T/two.fio"
check_exit "status-interval: a job file of two jobs" 0 "$SB" io "$T/two.fio" --status-interval=1 --output-format=json
check "status-interval: two jobs in every report" \
    [ "$(docs "$T/out" | jq -s '[.[] | .jobs | length] | unique')" = "$(printf '[\n  2\n]')" ]
if [ $have_fio = 1 ]; then
    fio "${TIMED[@]}" --status-interval=1 --output-format=json >"$T/fj" 2>/dev/null
    check "status-interval: as many JSON reports as fio 3.33's ($(docs "$T/fj" | wc -l))" \
        [ "$(docs "$T/fj" | wc -l)" -eq "$n" ]
    missing=$(comm -23 <(jobkeys "$T/fj" | jq -r '.[]' | sort -u) <(jobkeys "$T/sj" | jq -r '.[]' | sort -u))
    check "status-interval: every job key of fio's reports in each ($missing)" [ -z "$missing" ]
    check "status-interval: top-level keys as fio's" [ "$(docs "$T/fj" | jq -c 'keys - ["storbench version"]' | sort -u)" \
        = "$(docs "$T/sj" | jq -c 'keys - ["storbench version"]' | sort -u)" ]
else
    ok "# SKIP fio or jq missing: no comparison with fio's --status-interval"
fi

# ---- --eta ----
check_exit "eta=always with json" 0 "$SB" io "${JOB[@]}" --runtime=2 --time_based --eta=always --output-format=json
check "eta=always: stdout is one JSON document" jq -e '.jobs | length == 1' "$T/out"
check "eta=always without a terminal: a line per interval on stderr" [ "$(grep -c '^Jobs: 1 (f=1): \[r(1)\]' "$T/err")" -ge 1 ]
check_exit "eta=auto without a terminal" 0 "$SB" io "${JOB[@]}" --eta-interval=250ms
check "eta=auto without a terminal: no progress" [ ! -s "$T/err" ]
check_exit "eta-interval=500ms" 0 "$SB" io "${JOB[@]}" --runtime=2 --time_based --eta=always --eta-interval=500ms --output-format=terse
check "eta-interval=500ms: about twice the lines ($(grep -c '^Jobs:' "$T/err"))" [ "$(grep -c '^Jobs:' "$T/err")" -ge 3 ]
check_exit "eta=never" 0 "$SB" io "${JOB[@]}" --runtime=1 --time_based --eta=never
check "eta=never: nothing on stderr" [ ! -s "$T/err" ]

# ---- --minimal, --showcmd, --max-jobs, --warnings-fatal ----
check_exit "minimal" 0 "$SB" io "${JOB[@]}" --minimal
check "minimal: one terse line" sh -c "[ \$(wc -l <'$T/out') -eq 1 ] && grep -q '^3;' '$T/out'"
printf '[global]\nbs=4k\n[j1]\nrw=write\nsize=1m\n[j2]\nrw=read\n' >"$T/sc.fio"
check_exit "showcmd" 0 "$SB" io --showcmd "$T/sc.fio"
cp "$T/out" "$T/sc.out"
if [ $have_fio = 1 ]; then
    fio --showcmd "$T/sc.fio" >"$T/sc.fio.out" 2>/dev/null
    check "showcmd: fio's line ($(cat "$T/sc.fio.out"))" cmp -s "$T/sc.out" "$T/sc.fio.out"
else
    check "showcmd: the line" grep -qx 'fio --bs=4k --name=j1 --rw=write --size=1m --name=j2 --rw=read ' "$T/sc.out"
fi
check_exit "max-jobs refuses more threads" 2 "$SB" io "${JOB[@]}" --numjobs=3 --max-jobs=2
check_one_line "max-jobs: one line" "max-jobs"
check_exit "max-jobs refuses a job file's threads" 2 "$SB" io "$T/two.fio" --max-jobs=1
check_exit "max-jobs: as many as allowed run" 0 "$SB" io "${JOB[@]}" --numjobs=2 --max-jobs=2 --minimal
check "max-jobs: both threads reported" [ "$(wc -l <"$T/out")" -eq 2 ]
# a warning (job/check.c): iodepth with a synchronous engine, which fio too warns about
WARN=("${JOB[@]}" --ioengine=psync --iodepth=4)
check_exit "a warning alone" 0 "$SB" io "${WARN[@]}" --minimal
check "a warning alone: on stderr" grep -q 'iodepth 4 has no effect' "$T/err"
check_exit "warnings-fatal: the warning is an error" 2 "$SB" io "${WARN[@]}" --warnings-fatal
check_one_line "warnings-fatal: one line" "warnings-fatal"
check_exit "warnings-fatal in a job file" 2 "$SB" io --warnings-fatal "$T/sc.fio" --iodepth=4

# ---- errors never break a JSON standard output ----
# (a file below a regular file: a missing directory would be made, as fio's)
: >"$T/notadir"
check_exit "a failing job" 1 "$SB" io --name=a --rw=read --size=1m --filename="$T/notadir/dir/f" --output-format=json
check "a failing job: stdout is valid JSON or empty" sh -c "[ ! -s '$T/out' ] || jq -e . '$T/out' >/dev/null"
check "a failing job: its error on stderr" grep -q 'notadir' "$T/err"
printf '[ok]\nrw=read\nsize=1m\nfilename=%s/ok\n[bad]\nrw=read\nsize=1m\nfilename=%s/notadir/x\n' "$M" "$T" >"$T/bad.fio"
check_exit "a job file with a failing job" 1 "$SB" io "$T/bad.fio" --output-format=json --status-interval=1
docs "$T/out" | grep -q BROKEN && not_ok "a failing job of a file: a document broken" || ok "a failing job of a file: no document broken"

# ---- bad values: exit 2, one line ----
for bad in --status-interval=500ms --status-interval=x --eta=sometimes --eta-interval=100ms \
           --eta-newline=0 --max-jobs=0 --max-jobs=x; do
    check_exit "bad $bad" 2 "$SB" io "${JOB[@]}" "$bad"
    check_one_line "bad $bad: one line" "${bad%%=*}"
done
check_exit "showcmd without jobs" 2 "$SB" io --showcmd --filename="$M/f" --size=1m
finish
