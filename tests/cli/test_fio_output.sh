#!/bin/bash
# CLI tests of `storbench io`'s fio output formats (issue 27, src/cli/io_output.c,
# src/formats/fio_*.c), read by fio's own consumers: fio and storbench run the same tiny
# job and every key path fio's JSON has must be in storbench's (docs/io.md "Output
# formats" names the exceptions; this job has none); fio_jsonplus_clat2csv converts and
# validates storbench's json+; the terse line has fio's field count; the normal output
# has fio's blocks (one per thread without group_reporting, one per group with it, "Run
# status group" per group, "Disk stats" on a disk); --output FILE, job files included;
# the previous JSON as storbench-json. Without fio the comparisons skip, visibly.
. "$(dirname "$0")/lib.sh"

# A tmpfs target when there is one (no disk: the figures are the engine's), else $T.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    M=$(mktemp -d /dev/shm/sbfio.XXXXXX)
    trap 'rm -rf "$M" "$T"' EXIT
else
    M="$T/m"
    mkdir -p "$M"
fi
JOB=(--name=t --filename="$M/f" --size=1m --bs=4k --rw=randread)
have_fio=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1

# jq -e on an empty file is true: a file must hold a document for a check to pass
jqok() { [ -s "${*: -1}" ] && jq -e "$@" >/dev/null 2>&1; }
# The key paths of a JSON document, array indexes as [] (fio's bins values are data).
keys() { jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' "$1" |
    grep -v '\.bins\.'; }

# ---- json: fio's layout and values ----
check_exit "json runs" 0 "$SB" io "${JOB[@]}" --output-format=json
cp "$T/out" "$T/s.json"
check "json: fio version names the schema and storbench" \
    jqok '."fio version" | test("^fio-3\\.33 \\(storbench-")' "$T/s.json"
check "json: one job, its name and group" jqok '(.jobs | length) == 1 and .jobs[0].jobname == "t" and .jobs[0].groupid == 0' "$T/s.json"
check "json: read figures in fio's units" jqok '.jobs[0].read | .total_ios == 256 and .io_bytes == 1048576 and
    .io_kbytes == 1024 and .bw == (.bw_bytes / 1024 | floor) and .clat_ns.N == 256' "$T/s.json"
check "json: percentiles keyed as fio's" jqok '.jobs[0].read.clat_ns.percentile | has("99.000000") and has("99.990000")' "$T/s.json"
check "json: job options as given" jqok '.jobs[0]."job options" | .name == "t" and .bs == "4k" and .rw == "randread"' "$T/s.json"
check "json: latency buckets sum to 100 %" \
    jqok '.jobs[0] | ([.latency_ns[], .latency_us[], .latency_ms[]] | add) - 100 | fabs < 0.01' "$T/s.json"
check "json: storbench's own figures in an added key" jqok '.jobs[0].storbench.cpu.ios == 256' "$T/s.json"

if [ $have_fio = 1 ]; then
    fio "${JOB[@]}" --output-format=json >"$T/f.json" 2>"$T/ferr"
    keys "$T/f.json" >"$T/f.keys"
    keys "$T/s.json" >"$T/s.keys"
    missing=$(comm -23 "$T/f.keys" "$T/s.keys")
    check "json: every key fio writes for the job is in storbench's ($(wc -l <"$T/f.keys") paths)" test -z "$missing"
    [ -z "$missing" ] || echo "# missing: $(echo "$missing" | head -20 | tr '\n' ' ')"
    check "json: the same percentile keys as fio's" \
        test "$(jq -c '.jobs[0].read.clat_ns.percentile | keys' "$T/f.json")" = \
        "$(jq -c '.jobs[0].read.clat_ns.percentile | keys' "$T/s.json")"
else
    echo "ok # SKIP fio or jq not installed: storbench's JSON keys not compared with fio's"
fi

check "json: IO depths of a synchronous engine: all at 1" \
    jqok '.jobs[0] | .iodepth_level["1"] == 100 and .iodepth_submit["4"] == 100 and .iodepth_complete["4"] == 100' "$T/s.json"
check_exit "json: libaio at iodepth 8 runs" 0 "$SB" io "${JOB[@]}" --ioengine=libaio --iodepth=8 --output-format=json
check "json: its IO depths counted (shares of 100, most at 8)" jqok '.jobs[0] |
    ([.iodepth_level[]] | add - 100 | fabs < 0.01) and ([.iodepth_complete[]] | add - 100 | fabs < 0.01) and
    .iodepth_level["8"] > 50' "$T/out"

# ---- json+: fio_jsonplus_clat2csv reads it ----
check_exit "json+ runs" 0 "$SB" io "${JOB[@]}" --output-format=json+
cp "$T/out" "$T/plus.json"
check "json+: bins add up to the I/Os" jqok '.jobs[0].read.clat_ns.bins | [.[]] | add == 256' "$T/plus.json"
check "json (not +): no bins" jqok '.jobs[0].read.clat_ns | has("bins") | not' "$T/s.json"
if command -v fio_jsonplus_clat2csv >/dev/null && command -v python3 >/dev/null; then
    (cd "$T" && fio_jsonplus_clat2csv plus.json plus.csv >"$T/c.out" 2>&1 &&
        fio_jsonplus_clat2csv plus.json plus.csv --validate >>"$T/c.out" 2>&1)
    check "fio_jsonplus_clat2csv converts and validates storbench's json+" grep -q 'plus_job0.csv validated' "$T/c.out"
    check "its CSV: one row per bin" test "$(($(wc -l <"$T/plus_job0.csv") - 1))" = \
        "$(jq '.jobs[0].read.clat_ns.bins | length' "$T/plus.json")"
else
    echo "ok # SKIP fio_jsonplus_clat2csv (Debian's fio) or python3 not installed"
fi
# fio2gnuplot on storbench's write_*_log files: tests/cli/test_fio_examples.sh (the logs are the input side's).

# ---- terse version 3 ----
check_exit "terse runs" 0 "$SB" io "${JOB[@]}" --output-format=terse --terse-version=3
check "terse: one line, version 3, fio's field count (121 without a disk)" \
    test "$(wc -l <"$T/out")" = 1 -a "$(cut -d';' -f1,3 "$T/out")" = "3;t" -a "$(awk -F';' '{print NF}' "$T/out")" = 121
check "terse: read KiB and the I/O count behind IOPS" test "$(cut -d';' -f6 "$T/out")" = 1024
if [ $have_fio = 1 ]; then
    fio "${JOB[@]}" --output-format=terse >"$T/ft" 2>/dev/null
    check "terse: as many fields as fio's" test "$(awk -F';' '{print NF}' "$T/ft")" = "$(awk -F';' '{print NF}' "$T/out")"
fi
check_exit "terse version 6 is refused (fio's are 2 .. 5)" 2 "$SB" io "${JOB[@]}" --output-format=terse --terse-version=6
check_exit "an unknown format is refused" 2 "$SB" io "${JOB[@]}" --output-format=json,xml
check "  in one line naming it" test "$(wc -l <"$T/err")" = 1 -a -n "$(grep "'xml' is none of" "$T/err")"

# ---- several formats at once, fio's order: normal's job lines (fio prints them as the jobs
# start), terse, json, then normal's report ----
check_exit "json,normal runs" 0 "$SB" io "${JOB[@]}" --output-format=normal,json
check "json,normal: the job lines, the JSON, then the normal report" \
    sh -c "head -1 '$T/out' | grep -q '^t: (g=0): rw=' && sed -n 4p '$T/out' | grep -qx '{' &&
           grep -q '^t: (groupid=0, jobs=1): err= 0: pid=' '$T/out' &&
           [ \$(grep -n '^{' '$T/out' | head -1 | cut -d: -f1) -lt \$(grep -n '^t: (groupid' '$T/out' | cut -d: -f1) ]"

# ---- normal: per thread, group_reporting, groups, disk stats ----
check_exit "numjobs=4 runs" 0 "$SB" io --name=n --directory="$M" --size=256k --numjobs=4 --quiet
check "numjobs=4 without group_reporting: 4 blocks" test "$(grep -c '^n: (groupid=0, jobs=1): err= 0' "$T/out")" = 4
check "  one Run status group" test "$(grep -c '^Run status group 0 (all jobs):' "$T/out")" = 1
check "  its READ line" grep -Eq '^   READ: bw=.*, io=1024KiB \(1049kB\), run=' "$T/out"
check_exit "numjobs=4 json runs" 0 "$SB" io --name=n --directory="$M" --size=256k --numjobs=4 --output-format=json
check "numjobs=4 json: 4 jobs of 64 I/Os" jqok '[.jobs[].read.total_ios] == [64, 64, 64, 64]' "$T/out"
check_exit "group_reporting runs" 0 "$SB" io --name=n --directory="$M" --size=256k --numjobs=4 --group_reporting
check "group_reporting: one block of 4 jobs" test "$(grep -c '^n: (groupid=0, jobs=' "$T/out")" = 1 \
    -a -n "$(grep '^n: (groupid=0, jobs=4)' "$T/out")"

printf '[global]\nsize=128k\nbs=4k\nfilename=%s/g\n[w]\nrw=write\n[r]\nnew_group\nrw=read\n[x]\nstonewall\nrw=randread\n' "$M" >"$T/g.fio"
check_exit "a job file of three groups runs" 0 "$SB" io --quiet "$T/g.fio"
check "job file: a Run status line per group" test "$(grep -c '^Run status group [012] (all jobs):' "$T/out")" = 3
check "job file: each job's block in its group" \
    test "$(grep -cE '^(w: \(groupid=0|r: \(groupid=1|x: \(groupid=2), jobs=1\)' "$T/out")" = 3
check_exit "job file, json, to --output FILE" 0 "$SB" io --output-format=json --output "$T/g.json" "$T/g.fio"
check "--output: nothing on stdout" test ! -s "$T/out"
check "--output: one jobs array for the whole file, groups 0 1 2" jqok '[.jobs[].groupid] == [0, 1, 2]' "$T/g.json"
check "--output: global options as given" jqok '."global options" | .size == "128k" and .bs == "4k"' "$T/g.json"
if [ $have_fio = 1 ]; then
    fio --output-format=json "$T/g.fio" >"$T/fg.json" 2>/dev/null
    keys "$T/fg.json" >"$T/f.keys"
    keys "$T/g.json" >"$T/s.keys"
    missing=$(comm -23 "$T/f.keys" "$T/s.keys")
    check "job file json: every key fio writes is in storbench's" test -z "$missing"
    [ -z "$missing" ] || echo "# missing: $(echo "$missing" | head -20 | tr '\n' ' ')"
    check "job file json: the same job options as fio's" \
        test "$(jq -c '[.jobs[]."job options" | keys]' "$T/fg.json")" = "$(jq -c '[.jobs[]."job options" | keys]' "$T/g.json")"
fi
: >"$M/notadir" # a file below a regular file cannot be made (a missing directory would be, as fio's)
printf '[ok]\nrw=read\nsize=64k\nfilename=%s/g\n[bad]\nstonewall\nrw=read\nsize=64k\nfilename=%s/notadir/x\n' "$M" "$M" >"$T/bad.fio"
"$SB" io --quiet --output-format=json --output "$T/bad.json" "$T/bad.fio" >"$T/out" 2>"$T/err"
check "a job that fails: exit not 0, one line, --output not written" \
    test $? != 0 -a "$(wc -l <"$T/err")" = 1 -a ! -e "$T/bad.json"
check_exit "--output in a missing directory: refused before the run" 2 "$SB" io "${JOB[@]}" --output "$T/nodir/o.json"
check "  in one line" test "$(wc -l <"$T/err")" = 1 -a -n "$(grep -- '--output' "$T/err")"
check_exit "--output naming a directory: refused" 2 "$SB" io "${JOB[@]}" --output "$T"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    S=$(mktemp -d /tmp/sbfo.XXXXXX)
    chmod 1777 "$S"
    echo keep >"$T/victim"
    ln -s "$T/victim" "$S/link"
    chown -h nobody "$S/link"
    check_exit "--output through another user's link in a sticky directory: refused" 2 \
        "$SB" io "${JOB[@]}" --output "$S/link"
    check "  the file it points to is untouched" grep -qx keep "$T/victim"
    rm -rf "$S"
else
    echo "ok # SKIP not root or no user nobody: the protected-symlink rule for --output not checked"
fi
check_exit "--output=FILE is --output, not a prefix of --output-format" 0 "$SB" io "${JOB[@]}" --output="$T/o.txt"
check "  the file holds the normal output" grep -q '^Run status group 0' "$T/o.txt"

# A target on a block device: disk_util and "Disk stats" (fio has them there too).
B="$T/blk"
mkdir -p "$B"
if [ "$(stat -c %d "$B")" != 0 ] && [ "$(($(stat -c %d "$B") >> 8))" != 0 ] && [ -n "$(stat -fc %T "$B" | grep -v tmpfs)" ] &&
    [ -e "/sys/dev/block/$(($(stat -c %d "$B") >> 8)):$(($(stat -c %d "$B") & 255))" ]; then
    check_exit "on a disk: json,normal" 0 "$SB" io --name=d --directory="$B" --size=256k --direct=1 --output-format=json,normal
    sed -n '/^{/,/^}/p' "$T/out" >"$T/d.json"
    check "disk_util names a disk" jqok '.disk_util | length >= 1 and (.[0].name | length > 0)' "$T/d.json"
    check "Disk stats (read/write) follow the groups" grep -Eq '^  [a-z0-9]+: ios=[0-9]+/[0-9]+, merge=' "$T/out"
    if [ $have_fio = 1 ]; then
        fio --name=d --directory="$B" --size=256k --direct=1 --output-format=json >"$T/fd.json" 2>/dev/null
        check "disk_util: the disk fio names" test "$(jq -r '.disk_util[0].name' "$T/fd.json")" = \
            "$(jq -r '.disk_util[0].name' "$T/d.json")"
    fi
else
    echo "ok # SKIP $T is on no block device: disk_util not checked"
fi

# ---- the periodic syncs (fsync=N, fdatasync=N): counted and timed as fio's ----
# fio issues the sync when it fetches the next I/O, so 64 writes with fsync=4 make 15
# syncs (none after the last write); total_ios counts fsyncs, lat_ns every sync
for e in psync libaio; do
    check_exit "fsync=4, $e: runs" 0 "$SB" io --name=s --filename="$M/s" --size=256k --rw=write --fsync=4 \
        --ioengine=$e --iodepth=4 --output-format=json
    check "fsync=4, $e: 15 syncs counted and timed, as fio's" \
        jqok '.jobs[0].sync.total_ios == 15 and .jobs[0].sync.lat_ns.N == 15 and .jobs[0].sync.lat_ns.min > 0' "$T/out"
done
check_exit "fdatasync=4: runs" 0 "$SB" io --name=s --filename="$M/s" --size=256k --rw=write --fdatasync=4 \
    --output-format=json
check "fdatasync=4: timed, not in total_ios (fio's)" \
    jqok '.jobs[0].sync.total_ios == 0 and .jobs[0].sync.lat_ns.N == 15' "$T/out"
check_exit "fsync=4: normal output" 0 "$SB" io --name=s --filename="$M/s" --size=256k --rw=write --fsync=4
check "normal: fio's sync block and the fsyncs as the fourth issued" \
    sh -c "grep -q '^  fsync/fdatasync/sync_file_range:' '$T/out' && grep -q '^    sync (.sec): min=' '$T/out' && grep -q 'issued rwts: total=0,64,0,15 ' '$T/out'"
if [ $have_fio = 1 ]; then
    rm -f "$M/s"
    fio --name=s --filename="$M/s" --size=256k --rw=write --fsync=4 --output-format=json >"$T/fio-sync.json" 2>/dev/null
    check "fio counts the same syncs" jqok '.jobs[0].sync.total_ios == 15' "$T/fio-sync.json"
fi
rm -f "$M/s"

# ---- storbench's previous JSON stays ----
check_exit "storbench-json runs" 0 "$SB" io "${JOB[@]:1}" --output-format=storbench-json
check "storbench-json: its keys" jqok '.format_version == 1 and .read.ios == 256 and (.read.lat_ns.percentiles | has("p99"))' "$T/out"
finish
