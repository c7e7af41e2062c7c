#!/bin/bash
# CLI tests of more of fio's command line in `storbench io` (src/cli/io_fio_cli.c,
# io_output.c, formats/fio_terse.c): --trigger-timeout and --trigger-file end every job
# where it is (its figures reported, exit 0, as fio's) and run --trigger's command once,
# the file removed; later phases of a job file do not start; --trigger alone is refused;
# --aux-path is where verify_dump's files go; --terse-version 2 .. 5 and --append-terse
# write fio's fields (as many as fio's, compared) and order; --output FILE with several
# formats holds them in fio's order (compared); --alloc-size, --client, --server and
# --remote-config are refused with one line naming the MPI way.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
command -v python3 >/dev/null && have_py=1 || have_py=0
command -v fio >/dev/null && have_fio=1 || have_fio=0
[ $have_fio = 1 ] || echo "ok # SKIP the comparisons with fio: fio missing"
LONG=(--name=t --filename="$T/f" --size=16m --bs=4k --rw=write --time_based --runtime=60)

# --trigger-timeout: the job ends at 1s of its 60, the command runs once, exit 0
check_exit "--trigger-timeout=1 --trigger=CMD: the job ends early and exits 0" 0 \
    timeout 30 "$SB" io --quiet "${LONG[@]}" --trigger-timeout=1 --trigger="echo x >>$T/ran" \
    --output-format=json
check "the command ran once" test "$(cat "$T/ran" 2>/dev/null)" = x
if [ $have_py = 1 ]; then
    check "the report is the job's, no error, under 60 s of runtime" python3 -c "
import json,sys; j=json.load(open('$T/out'))['jobs'][0]
sys.exit(0 if j['error'] == 0 and 0 < j['job_runtime'] < 60000 and j['write']['io_bytes'] > 0 else 1)"
fi
# --trigger-file: when it appears it is removed and the trigger fires
# the job's file from the run above goes first: the wait below is for this job's own writes
rm -f "$T/ran" "$T/go" "$T/f"
timeout 30 "$SB" io --quiet "${LONG[@]}" --trigger-file="$T/go" --trigger="echo y >>$T/ran" \
    >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 50); do [ -s "$T/f" ] && break; sleep 0.1; done
touch "$T/go"
wait $pid
check "--trigger-file: the job ends and exits 0 when the file appears" test $? = 0
check "the command ran, the file is removed" test "$(cat "$T/ran" 2>/dev/null)" = y -a ! -e "$T/go"
check "the report is printed$(grep -q '^t: (groupid=0' "$T/out" || echo " (out: $(head -c 300 "$T/out" | tr '\n' ' '); err: $(head -c 300 "$T/err" | tr '\n' ' '))")" \
    grep -q "^t: (groupid=0" "$T/out"
# a job file's later phases do not start after the trigger (fio ends every job)
printf '[a]\nfilename=%s\nsize=16m\nrw=write\ntime_based=1\nruntime=60\n[b]\nstonewall\nfilename=%s\nsize=1m\nrw=read\n' \
    "$T/f" "$T/f" >"$T/two.fio"
check_exit "job file: the trigger ends it, exit 0" 0 timeout 30 "$SB" io --quiet --trigger-timeout=1 \
    "$T/two.fio"
check "and the second phase never starts" test "$(grep -c '(groupid=' "$T/out")" = 1
check_exit "--trigger without a file or a timeout is refused" 2 "$SB" io --filename="$T/f" --trigger=true
check_one_line "and named" "--trigger"

# --aux-path: verify_dump's files go there
mkdir -p "$T/aux"
rm -f "$T/f"
"$SB" io --quiet --filename="$T/f" --rw=write --size=64k --verify=md5 >/dev/null 2>&1
flip_byte "$T/f" $((4096 * 3 + 1000))
check_exit "--aux-path with verify_dump: the mismatch fails the job" 1 "$SB" io --quiet \
    --filename="$T/f" --rw=read --size=64k --verify=md5 --verify_only --verify_dump --aux-path="$T/aux"
check "the dumped blocks are in --aux-path, none in the working directory" \
    test -s "$T/aux/f.12288.received" -a -s "$T/aux/f.12288.expected" -a ! -e "$T/f.12288.received"
check_exit "--aux-path that is not a directory is refused" 2 "$SB" io --filename="$T/f" \
    --aux-path="$T/nope"
check_one_line "and named" "--aux-path"

# terse versions: as many fields as fio's, the version first; 2 has no fio version
SMALL=(--name=t --filename="$T/f" --size=64k --bs=4k --rw=read)
for v in 2 3 4 5; do
    "$SB" io "${SMALL[@]}" --output-format=terse --terse-version=$v >"$T/st" 2>/dev/null
    want=$([ $v = 2 ] && echo "2;t" || echo "$v;fio-3.33")
    check "--terse-version=$v: the line starts $want" test "$(cut -d';' -f1,2 "$T/st")" = "$want"
    if [ $have_fio = 1 ]; then
        fio "${SMALL[@]}" --output-format=terse --terse-version=$v >"$T/ft" 2>/dev/null
        check "--terse-version=$v: as many fields as fio's ($(awk -F';' '{print NF}' "$T/ft"))" \
            test "$(awk -F';' '{print NF}' "$T/st")" = "$(awk -F';' '{print NF}' "$T/ft")"
    fi
done
# --append-terse: the job lines, the terse line, then the normal report (fio's order)
order() { grep -nE '^t: \(g=0\)|^[2-5];|^\{|^t: \(groupid' "$1" | sed -E 's/^([0-9]+):(t: \(g=0\)|t: \(groupid|[2-5];|\{).*/\2/' | tr '\n' ' '; }
"$SB" io "${SMALL[@]}" --append-terse >"$T/st" 2>/dev/null
check "--append-terse: job lines, terse, normal report ($(order "$T/st"))" \
    test "$(order "$T/st")" = "t: (g=0) 3; t: (groupid "
# --output FILE with several formats: fio's order, the same as fio's file
rm -f "$T/o1" "$T/o2"
"$SB" io "${SMALL[@]}" --output-format=json,normal,terse --output="$T/o1" >/dev/null 2>&1
check "--output with json,normal,terse: job lines, terse, JSON, normal report ($(order "$T/o1"))" \
    test "$(order "$T/o1")" = "t: (g=0) 3; { t: (groupid "
if [ $have_fio = 1 ]; then
    fio "${SMALL[@]}" --output-format=json,normal,terse --output="$T/o2" >/dev/null 2>&1
    check "... in the order of fio's file ($(order "$T/o2"))" test "$(order "$T/o1")" = "$(order "$T/o2")"
    fio "${SMALL[@]}" --append-terse >"$T/o2" 2>/dev/null
    check "... and --append-terse's order is fio's" test "$(order "$T/st")" = "$(order "$T/o2")"
fi

# fio's flags that mean nothing here: one line each, exit 2
for f in --alloc-size=65536 --client=host1 --server --remote-config=job.fio; do
    check_exit "$f is refused" 2 "$SB" io --filename="$T/f" "$f"
    check_one_line "and named" "${f%%=*}"
done
check "--client's line points to MPI" grep -q "mpirun -np N storbench io job.fio" "$T/err"
finish
