#!/bin/bash
# storbench sweep: a 2 x 2 matrix (iodepth 1,4 x numjobs 1,2) in one command into one file
# holding 4 figures of the fio test with their parameters as options; the same command
# again runs nothing; an interrupted sweep (SIGINT once the first cell is saved) run again
# completes without measuring the saved cells again; a cell that makes no sense skipped
# with one line; a job file as the base; every option; and the refusals (unknown
# parameter, empty list, a range that does not end, a bad value, a matrix over 10,000
# cells without --yes, nothing left to run: one line, exit 2, nothing written).
# Cells are tiny (1 MiB files, 1 s runs, buffered psync): this tests behaviour, not speed.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/tgt" "$T/w"
cd "$T/w" || exit 1
TINY=(--size 1m --runtime 1 --ramp_time 0 --startdelay 0 --runs 1 --exact-runs --direct 0 --ioengine psync -t "$T/tgt")
# py EXPR FILE: evaluates EXPR with d the result file's JSON
py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($1)" "$2" 2>/dev/null; }
cells() { py "' '.join(sorted(r['options']['iodepth'] + 'x' + r['options']['numjobs'] for r in d['results']))" "$1"; }

# ---- the 2 x 2 sweep
check_exit "2 x 2 sweep" 0 "$SB" sweep --iodepth 1,4 --numjobs 1,2 "${TINY[@]}" -r ./s.json -i box
check "one file with 4 results of the fio test" test "$(py "len([r for r in d['results'] if r['test'] == 'fio'])" s.json)" = 4
check "the cells' parameters are the results' options" test "$(cells s.json)" = "1x1 1x2 4x1 4x2"
check "each cell one figure of the identifier" \
    test "$(py "sorted(set(len(r['entries']) for r in d['results'])), d['results'][0]['entries'][0]['identifier']" s.json)" = "[1] box"
check "each cell has its IOPS and latency" \
    test "$(py "all(any(s['name'] == 'iops' for s in r['entries'][0]['secondary']) and any(s['name'] == 'lat_p99' for s in r['entries'][0]['secondary']) for r in d['results'])" s.json)" = True
check "the swept options set, the others as given" \
    test "$(py "set((r['options']['engine'], r['options']['direct'], r['options']['size']) for r in d['results'])" s.json)" = "{('psync', 'no', '1m')}"
check "a progress line per cell with the matrix's ETA" \
    test "$(grep -c '^sweep: cell [1-4] of 4: iodepth=[14] numjobs=[12]  ([0-9:]* elapsed, matrix ETA [0-9:]*)$' "$T/out")" -eq 4
check "the closing line" grep -q "^sweep: 4 cells measured and saved as 'box' in ./s.json$" "$T/out"
cp s.json s0.json
check_exit "the same sweep again" 0 "$SB" sweep --iodepth 1,4 --numjobs 1,2 "${TINY[@]}" -r ./s.json -i box
check "... says all cells are saved" grep -q "all 4 cells are saved as 'box' in ./s.json already" "$T/out"
check "... and measures nothing" cmp -s s.json s0.json

# ---- interrupted after the first cell's save, then run again
ARGS=(--iodepth 1,2,4 --numjobs 1 "${TINY[@]}" -r ./i.json -i box)
"$SB" sweep "${ARGS[@]}" >"$T/i.out" 2>"$T/i.err" &
pid=$!
for _ in $(seq 1 300); do
    [ "$(py "len(d['results'])" i.json)" = 1 ] && break
    sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
check "interrupted: exit 130" test "$rc" -eq 130
check "interrupted: says what is saved and how to go on" \
    grep -q "sweep: interrupted (signal 2); [12] cells\? saved in ./i.json: the same command goes on from there" "$T/i.err"
n=$(py "len(d['results'])" i.json)
check "interrupted: the saved cells are kept (1 or 2 of 3)" test "$n" -ge 1 -a "$n" -le 2
first=$(py "[(r['options']['iodepth'], r['entries'][0]['values']) for r in d['results']]" i.json)
check_exit "run again" 0 "$SB" sweep "${ARGS[@]}"
check "run again: says which cells it skips" grep -q "sweep: $n of 3 cells are saved as 'box' in ./i.json already: running the other $((3 - n))" "$T/out"
check "run again: measures only the others" test "$(grep -c '^sweep: cell ' "$T/out")" -eq $((3 - n))
check "run again: the matrix is complete" test "$(py "sorted(r['options']['iodepth'] for r in d['results'])" i.json)" = "['1', '2', '4']"
check "run again: the saved cells' figures are as they were" \
    test "$(py "[(r['options']['iodepth'], r['entries'][0]['values']) for r in d['results']][:$n]" i.json)" = "$first"

# ---- a cell that makes no sense is skipped with one line; the rest is measured
check_exit "rwmixread over read and randrw" 0 "$SB" sweep --rw read,randrw --rwmixread 30 "${TINY[@]}" -r ./m.json
check "one line for the skipped cell" \
    test "$(cat "$T/err")" = "storbench: warning: sweep: skipped rw=read: rwmixread applies to a mixed rw (rw or randrw), not rw=read"
check "the mixed cell measured with its rwmixread" \
    test "$(py "[(r['options']['type'], r['options']['rwmixread']) for r in d['results']]" m.json)" = "[('randrw', '30')]"
check "the default identifier is the host name" test "$(py "d['systems'][0]['identifier']" m.json)" = "$(hostname)"

# ---- a job file as the base; the command line wins over it
printf '[global]\nbs=8k\ntime_based\n[base]\nrw=randread\niodepth=16\n' >base.fio
check_exit "--jobfile" 0 "$SB" sweep --jobfile base.fio --iodepth 2 "${TINY[@]}" -r ./j.json
check "--jobfile: the file's rw and bs, the command line's iodepth" \
    test "$(py "[(r['options']['type'], r['options']['bs'], r['options']['iodepth']) for r in d['results']]" j.json)" = "[('randread', '8k', '2')]"

# ---- options: --quick, --runs, --title, --description, -Q, a saved name, --results-dir
check_exit "--quick --runs 2 -Q --title --description, a saved name" 0 \
    "$SB" sweep --quick --bs 4k,8k -Q --title "Scaling" --description "a test" \
    --results-dir "$T/res" -r named "${TINY[@]}" --runs 2
check "-Q: nothing on stdout" test ! -s "$T/out"
check "a saved name lands in --results-dir" test -s "$T/res/named.json"
check "--title and --description" test "$(py "d['title'], d['description']" "$T/res/named.json")" = "Scaling a test"
check "--runs 2: two values per cell" test "$(py "[len(r['entries'][0]['values']) for r in d['results']]" "$T/res/named.json")" = "[2, 2]"
check "--quick: the cells at the quick scale" \
    test "$(py "all(r['description'].endswith('Scale: Quick') for r in d['results'])" "$T/res/named.json")" = True
check_exit "--help" 0 "$SB" sweep --help
check "--help names the parameters and --yes" grep -q -- '--rwmixread L' "$T/out"

# ---- refusals: one line, exit 2, nothing written
refused() { # refused NAME WORDS ARGS...
    local n=$1 w=$2; shift 2
    rm -f out.json
    check_exit "$n: exit 2" 2 "$SB" sweep -r ./out.json -t "$T/tgt" "$@"
    check_one_line "$n: one line" "$w"
    check "$n: nothing written" test ! -e out.json
}
refused "unknown parameter" "unknown option '--qd'" --qd 1,2
refused "empty list" "iodepth: an empty list" --iodepth ""
refused "empty item" "an empty item in '1,,4'" --iodepth 1,,4
refused "a range that does not end" "the range '4..' does not end" --iodepth 4..
refused "a range downwards" "does not end" --numjobs 8..2
refused "a bad value" "iodepth: 'x' is not a whole number" --iodepth 1,x
refused "an engine that does not exist" "ioengine=nope" --ioengine psync,nope
refused "a fixed parameter listed" "size takes one value" --iodepth 1 --size 1m,2m
refused "more than 10,000 cells" "more than 10000: say --yes" --iodepth 1..1024:1 --numjobs 1..20:1
refused "--yes passes the size check" "ioengine=nope" --yes --iodepth 1..1024:1 --numjobs 1..20:1 --ioengine nope
refused "every cell skipped" "every cell of the matrix is skipped: rw=read" --rw read --rwmixread 30
refused "a job file of two jobs" "has 2 jobs" --jobfile <(printf '[a]\nrw=read\n[b]\nrw=write\n')
refused "a bad target" "target $T/nope" --iodepth 1 -t "$T/nope"
refused "nothing to sweep" "name what to sweep" --quick --size 1m
refused "an argument" "unexpected argument 'fio'" fio
finish
