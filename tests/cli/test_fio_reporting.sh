#!/bin/bash
# CLI tests of fio's reporting options in `storbench io` (docs/io.md "Reporting options";
# sums in src/io/report/aggregate.c, layouts in src/formats/fio_*.c): unified_rw_reporting
# (none/mixed/both and 0/1/2), stats=0, significant_figures, unit_base, disk_util,
# disable_lat/clat/slat/bw_measurement, the refused block_error_percentiles (gtod_cpu:
# test_fio_clock.sh),
# a job that fails to start listed in JSON with its errno, and fio's JSON key set. Each
# check shows the option's effect on storbench's output and, where fio 3.33 is
# installed, that fio's output on the same job has the same shape (without fio those
# comparisons skip, visibly). Every run works in the scratch directory.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

have_fio=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1
jqok() { [ -s "${*: -1}" ] && jq -e "$@" >/dev/null 2>&1; }
keys() { jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique | .[]' "$1" |
    grep -v '\.bins\.'; }
nf() { awk -F';' '{print NF}' "$1"; }
# 256 I/Os of 4 KiB, reads and writes mixed, on a file of the scratch directory
JOB=(--name=t --filename="$T/f" --size=1m --bs=4k --rw=randrw --randseed=7)
# runs storbench and, with fio, fio on the same arguments: $T/s.OUT and $T/f.OUT
both_tools() {
    local out=$1; shift
    "$SB" io "$@" >"$T/s.$out" 2>"$T/s.err"
    [ $have_fio = 1 ] || return 0
    fio "$@" >"$T/f.$out" 2>"$T/f.err"
    # fio 3.33 prints notes and a job's start and lay-out lines amid its JSON at times
    case $out in *.json) sed -i '/^note: \|^[a-z]*: [(L]/d' "$T/f.$out" ;; esac
    return 0
}
# fio's key paths are all in storbench's (and fio's file holds some)
keys_in() { [ -s "$1" ] && [ -n "$(keys "$1")" ] && test -z "$(comm -23 <(keys "$1") <(keys "$2"))"; }
# jq filter A on storbench's file equals filter B on fio's: same A B SFILE FFILE
same() { [ -s "$4" ] && [ "$(jq -c "$1" "$3")" = "$(jq -c "$2" "$4")" ]; }
nf_is() { [ -s "$1" ] && [ "$(nf "$1")" = "$2" ]; }
fio_check() { # NAME COMMAND...: a comparison with fio's output, skipped without fio
    if [ $have_fio = 1 ]; then check "$@"; else echo "ok # SKIP fio or jq not installed: $1"; fi
}

# ---- unified_rw_reporting ----
both_tools mixed.json "${JOB[@]}" --unified_rw_reporting=mixed --output-format=json
check "unified_rw_reporting=mixed: one \"mixed\" direction holding every I/O" \
    jqok '.jobs[0] | has("mixed") and (has("read") or has("write") or has("trim") or has("sync") | not)
          and .mixed.total_ios == 256 and .mixed.io_bytes == 1048576 and .mixed.clat_ns.N == 256' "$T/s.mixed.json"
fio_check "unified_rw_reporting=mixed: fio's job keys" \
    same '.jobs[0] | del(.storbench) | keys' '.jobs[0] | keys' "$T/s.mixed.json" "$T/f.mixed.json"
fio_check "unified_rw_reporting=mixed: every key path of fio's is in storbench's" \
    keys_in "$T/f.mixed.json" "$T/s.mixed.json"
both_tools mixed.txt "${JOB[@]}" --unified_rw_reporting=1
check "unified_rw_reporting=1: normal output's mixed block, MIXED group line, issued as fio's" \
    eval 'grep -q "^  mixed: IOPS=.*(1024KiB/" "$T/s.mixed.txt" && grep -q "^  MIXED: bw=.*io=1024KiB" "$T/s.mixed.txt" &&
          grep -q "issued rwts: total=256,0,0,0 " "$T/s.mixed.txt" && ! grep -q "^  \(read\|write\): IOPS" "$T/s.mixed.txt"'
fio_check "unified_rw_reporting=1: fio prints the same lines" \
    eval 'grep -q "^  mixed: IOPS=.*(1024KiB/" "$T/f.mixed.txt" && grep -q "^  MIXED: bw=.*io=1024KiB" "$T/f.mixed.txt" &&
          grep -q "issued rwts: total=256,0,0,0 " "$T/f.mixed.txt"'
both_tools mixed.terse "${JOB[@]}" --unified_rw_reporting=mixed --output-format=terse
check "unified_rw_reporting=mixed: terse has one direction's fields (89), the mixed KiB first" \
    eval '[ "$(nf "$T/s.mixed.terse")" = 89 ] && [ "$(cut -d";" -f6 "$T/s.mixed.terse")" = 1024 ]'
fio_check "unified_rw_reporting=mixed: fio's terse field count" nf_is "$T/f.mixed.terse" 89

both_tools both.json "${JOB[@]}" --unified_rw_reporting=both --output-format=json
check "unified_rw_reporting=both: read, write, trim and mixed, mixed their sum" \
    jqok '.jobs[0] | has("read") and has("write") and has("trim") and
          .mixed.total_ios == .read.total_ios + .write.total_ios and .mixed.total_ios == 256' "$T/s.both.json"
fio_check "unified_rw_reporting=both: fio's job keys" \
    same '.jobs[0] | del(.storbench) | keys' '.jobs[0] | keys' "$T/s.both.json" "$T/f.both.json"
both_tools both.terse "${JOB[@]}" --unified_rw_reporting=2 --output-format=terse
check "unified_rw_reporting=2: terse has read, write and mixed (171 fields)" test "$(nf "$T/s.both.terse")" = 171
fio_check "unified_rw_reporting=2: fio's terse field count" nf_is "$T/f.both.terse" 171
"$SB" io "${JOB[@]}" --unified_rw_reporting=both >"$T/both.txt" 2>&1
check "unified_rw_reporting=both: normal output has read, write and mixed blocks and group lines" \
    eval 'grep -q "^  read: IOPS" "$T/both.txt" && grep -q "^  write: IOPS" "$T/both.txt" &&
          grep -q "^  mixed: IOPS=.*(1024KiB/" "$T/both.txt" && grep -q "^   READ: bw" "$T/both.txt" &&
          grep -q "^  MIXED: bw=.*io=1024KiB" "$T/both.txt"'
for v in none 0; do
    "$SB" io "${JOB[@]}" --unified_rw_reporting=$v --output-format=json >"$T/none.json" 2>/dev/null
    check "unified_rw_reporting=$v: directions apart, no mixed" \
        jqok '.jobs[0] | has("read") and has("write") and (has("mixed") | not)' "$T/none.json"
done
check_exit "unified_rw_reporting=x: refused" 2 "$SB" io "${JOB[@]}" --unified_rw_reporting=x
check_one_line "unified_rw_reporting=x: one line" unified_rw_reporting

# ---- stats=0 ----
R=(--filename="$T/g" --size=1m --bs=4k --rw=randread)
# (fio 3.33 prints a stats=0 job's start line and its file's lay-out line amid its JSON,
# and lists the job as an entry without a name, which storbench leaves out)
both_tools stats.json --name=quiet "${R[@]}" --stats=0 --name=loud "${R[@]}" --output-format=json
check "stats=0: the job is not in the JSON report, the other is" \
    jqok '[.jobs[].jobname] == ["loud"]' "$T/s.stats.json"
fio_check "stats=0: fio lists the same jobs" \
    same '[.jobs[].jobname]' '[.jobs[].jobname | select(. != null)]' "$T/s.stats.json" "$T/f.stats.json"
"$SB" io --name=quiet "${R[@]}" --stats=0 --name=loud "${R[@]}" >"$T/stats.txt" 2>&1
check "stats=0: no block for it in normal output, its I/O not in its group's" \
    eval '! grep -q "^quiet: (groupid" "$T/stats.txt" && grep -q "^loud: (groupid" "$T/stats.txt" &&
          grep -q "^   READ: .*io=1024KiB" "$T/stats.txt"'

# ---- significant_figures (normal output only, as fio) ----
for sf in 2 6; do
    both_tools sf$sf.txt "${JOB[@]}" --rw=randread --significant_figures=$sf
done
check "significant_figures=6: io in 6 digits (1024.0KiB)" \
    eval 'grep -q "(1024.0KiB/" "$T/s.sf6.txt" && grep -q "io=1024.0KiB (1048.6kB)" "$T/s.sf6.txt"'
check "significant_figures=2: io in 2 digits (1MiB)" \
    eval 'grep -q "(1MiB/" "$T/s.sf2.txt" && grep -q "io=1MiB (1MB)" "$T/s.sf2.txt"'
fio_check "significant_figures: fio's io figures at 6 and 2" \
    eval 'grep -q "io=1024.0KiB (1048.6kB)" "$T/f.sf6.txt" && grep -q "io=1MiB (1MB)" "$T/f.sf2.txt"'
"$SB" io "${JOB[@]}" --rw=randread --significant_figures=6 --output-format=terse >"$T/sf.terse" 2>/dev/null
check "significant_figures: terse keeps its own figures" test "$(cut -d';' -f6 "$T/sf.terse")" = 1024
check_exit "significant_figures=11: refused (1 to 10, as fio)" 2 "$SB" io "${JOB[@]}" --significant_figures=11

# ---- unit_base ----
both_tools ub1.txt "${JOB[@]}" --rw=randread --unit_base=1
check "unit_base=1: bandwidth in bits, io in bytes" \
    eval 'grep -q "BW=[0-9.]*[KMG]ibit/s ([0-9.]*[kMG]bit/s)(1024KiB/" "$T/s.ub1.txt" &&
          grep -q "^   READ: bw=[0-9.]*[KMG]ibit/s .*io=1024KiB" "$T/s.ub1.txt"'
fio_check "unit_base=1: fio's bits too" grep -q "BW=[0-9.]*[KMG]ibit/s ([0-9.]*[kMG]bit/s)(1024KiB/" "$T/f.ub1.txt"
"$SB" io "${JOB[@]}" --rw=randread --unit_base=8 >"$T/ub8.txt" 2>&1
check "unit_base=8: bandwidth in bytes" eval 'grep -q "BW=[0-9.]*[KMG]iB/s" "$T/ub8.txt" && ! grep -q bit/s "$T/ub8.txt"'

# ---- disk_util ----
"$SB" io "${JOB[@]}" --output-format=json >"$T/du1.json" 2>/dev/null
if jqok '.disk_util | length > 0' "$T/du1.json"; then
    "$SB" io "${JOB[@]}" --disk_util=0 --output-format=json >"$T/du0.json" 2>/dev/null
    check "disk_util=0: no disk_util in JSON (there is one without it)" jqok 'has("disk_util") | not' "$T/du0.json"
    "$SB" io "${JOB[@]}" --disk_util=0 >"$T/du0.txt" 2>&1
    check "disk_util=0: no Disk stats in normal output" eval '! grep -q "Disk stats" "$T/du0.txt" && grep -q "Run status" "$T/du0.txt"'
    # a file list whose first file is on tmpfs: the disk under the second is the job's too
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then
        M=$(mktemp -d /dev/shm/sbrep.XXXXXX)
        both_tools list.json --name=t --filename="$M/a:$T/b" --size=2m --rw=write --output-format=json
        rm -rf "$M"
        check "disk_util: the disk under every file of a:b (the first on tmpfs)" \
            jqok '.disk_util | length == 1' "$T/s.list.json"
        fio_check "disk_util: fio names the same disks" \
            same '[.disk_util[].name]' '[.disk_util[]?.name]' "$T/s.list.json" "$T/f.list.json"
    fi
else
    echo "ok # SKIP the scratch directory is on no block device: disk_util has nothing to show"
fi

# ---- disable_lat / disable_clat / disable_slat / disable_bw_measurement ----
A=(--name=t --filename="$T/f" --size=1m --bs=4k --rw=randread --ioengine=libaio --iodepth=2)
"$SB" io "${A[@]}" --output-format=json >"$T/lat.json" 2>/dev/null
check "an asynchronous job has slat, clat and lat (the base of the disable_* checks)" \
    jqok '.jobs[0].read | .slat_ns.N == 256 and .clat_ns.N == 256 and .lat_ns.N == 256' "$T/lat.json"
"$SB" io "${A[@]}" --disable_lat=1 --output-format=json >"$T/dl.json" 2>/dev/null
check "disable_lat: no total latency, clat and slat kept" \
    jqok '.jobs[0].read | .lat_ns.N == 0 and .clat_ns.N == 256 and .slat_ns.N == 256' "$T/dl.json"
"$SB" io "${A[@]}" --disable_lat=1 >"$T/dl.txt" 2>&1
check "disable_lat: no lat line in normal output" eval '! grep -q "^     lat (" "$T/dl.txt" && grep -q "^    clat (" "$T/dl.txt"'
"$SB" io "${A[@]}" --disable_clat=1 --output-format=json >"$T/dc.json" 2>/dev/null
check "disable_clat: no clat, no percentiles, no buckets; lat kept" \
    jqok '.jobs[0] | .read.clat_ns.N == 0 and (.read.clat_ns | has("percentile") | not) and .read.lat_ns.N == 256
          and ([.latency_ns[], .latency_us[], .latency_ms[]] | add) == 0' "$T/dc.json"
"$SB" io "${A[@]}" --disable_clat=1 >"$T/dc.txt" 2>&1
check "disable_clat: no clat line or percentiles in normal output" \
    eval '! grep -q "^    clat \|clat percentiles\|^  lat (" "$T/dc.txt" && grep -q "^     lat (" "$T/dc.txt"'
"$SB" io "${A[@]}" --disable_slat=1 --output-format=json >"$T/ds.json" 2>/dev/null
check "disable_slat: no submission latency" jqok '.jobs[0].read | .slat_ns.N == 0 and .clat_ns.N == 256' "$T/ds.json"
if [ $have_fio = 1 ]; then
    for o in lat clat slat; do
        fio "${A[@]}" --disable_$o=1 --output-format=json >"$T/f.d$o.json" 2>/dev/null
        "$SB" io "${A[@]}" --disable_$o=1 --output-format=json >"$T/s.d$o.json" 2>/dev/null
        q='.jobs[0].read | [.slat_ns.N, .clat_ns.N, .lat_ns.N]'
        check "disable_$o: fio's N of slat, clat, lat" test "$(jq -c "$q" "$T/f.d$o.json")" = "$(jq -c "$q" "$T/s.d$o.json")"
    done
else
    echo "ok # SKIP fio or jq not installed: disable_* not compared with fio's"
fi
"$SB" io "${A[@]}" --disable_lat=1 --disable_clat=1 --disable_slat=1 --output-format=json >"$T/d3.json" 2>/dev/null
check "every disable_* latency: no latency measured, the I/Os counted" \
    jqok '.jobs[0].read | .slat_ns.N == 0 and .clat_ns.N == 0 and .lat_ns.N == 0 and .total_ios == 256' "$T/d3.json"
B=(--name=t --filename="$T/f" --size=1m --bs=4k --rw=randread --time_based --runtime=2)
"$SB" io "${B[@]}" --output-format=json >"$T/bw.json" 2>/dev/null
check "bandwidth samples over a 2 s job (the base of disable_bw_measurement)" \
    jqok '.jobs[0].read | .bw_samples > 0 and .iops_samples > 0' "$T/bw.json"
"$SB" io "${B[@]}" --disable_bw_measurement=1 --output-format=json >"$T/nobw.json" 2>/dev/null
check "disable_bw_measurement: no bandwidth or IOPS samples" \
    jqok '.jobs[0].read | .bw_samples == 0 and .iops_samples == 0 and .total_ios > 0' "$T/nobw.json"
"$SB" io "${B[@]}" --disable_bw=1 >"$T/nobw.txt" 2>&1
check "disable_bw (fio's alias): no samples lines in normal output" \
    eval '! grep -q "^   bw (\|^   iops  \|bw per " "$T/nobw.txt" && grep -q "^  read: IOPS" "$T/nobw.txt"'

# ---- refused: block_error_percentiles=1 ----
check_exit "block_error_percentiles=1: refused" 2 "$SB" io "${JOB[@]}" --block_error_percentiles=1
check_one_line "block_error_percentiles=1: one line saying why" "block_error_percentiles"
check_exit "block_error_percentiles=0 (fio's default): runs" 0 "$SB" io "${JOB[@]}" --block_error_percentiles=0

# ---- a job that fails to start: in the JSON with its errno, exit 1 ----
mkdir -p "$T/adir"
check_exit "a job on a directory fails: exit 1" 1 "$SB" io --name=bad --filename="$T/adir" --size=1m --output-format=json
check "a failed job: listed in JSON with its errno (EISDIR), no I/O" \
    jqok '.jobs | length == 1 and .[0].jobname == "bad" and .[0].error == 21 and .[0].read.total_ios == 0' "$T/out"
check_exit "a failed job beside one that runs: exit 1" 1 "$SB" io --name=good --filename="$T/f" --size=1m \
    --name=bad --filename="$T/adir" --size=1m --output-format=json
check "the failed one with its errno, the other with its figures" \
    jqok '[.jobs[] | [.jobname, .error, .read.total_ios]] == [["good", 0, 256], ["bad", 21, 0]]' "$T/out"
if [ $have_fio = 1 ]; then
    fio --name=bad --filename="$T/adir" --size=1m --output-format=json >"$T/f.bad.json" 2>/dev/null
    check "a failed job: fio's error too" test "$(jq -c '[.jobs[] | [.jobname, .error]]' "$T/f.bad.json")" = '[["bad",21]]'
else
    echo "ok # SKIP fio or jq not installed: the failed job not compared with fio's"
fi
check_exit "a failed job in normal output: exit 1" 1 "$SB" io --name=bad --filename="$T/adir" --size=1m
check "a failed job: no block in normal output (fio's has none), the group line is there" \
    eval '! grep -q "^bad: (groupid" "$T/out" && grep -q "^Run status group 0" "$T/out"'

# ---- fsync=N's syncs: fio's "sync" figures ----
W=(--name=t --filename="$T/w" --size=1m --bs=4k --rw=write)
both_tools sync.json "${W[@]}" --fsync=4 --output-format=json
check "fsync=4: the syncs counted and timed in \"sync\" (63 for 256 writes: none after the last, as fio's), with percentiles" \
    jqok '.jobs[0].sync | .total_ios == 63 and .lat_ns.N == 63 and .lat_ns.min > 0 and
          (.lat_ns.percentile | has("99.000000"))' "$T/s.sync.json"
fio_check "fsync=4: every key path of fio's is in storbench's (sync's percentiles too)" \
    keys_in "$T/f.sync.json" "$T/s.sync.json"
"$SB" io "${W[@]}" --fsync=4 >"$T/sync.txt" 2>&1
check "fsync=4: normal output's sync block and the syncs in issued rwts" \
    eval 'grep -q "^  fsync/fdatasync/sync_file_range:" "$T/sync.txt" && grep -q "^    sync (.sec): min=" "$T/sync.txt" &&
          grep -q "issued rwts: total=0,256,0,63 " "$T/sync.txt"'
"$SB" io "${W[@]}" --end_fsync=1 --output-format=json >"$T/esync.json" 2>/dev/null
check "end_fsync: not among the sync figures, as fio's" jqok '.jobs[0].sync | .total_ios == 0 and .lat_ns.N == 0' "$T/esync.json"

# ---- fio's JSON key set on a simple job ----
if [ $have_fio = 1 ]; then
    for eng in psync libaio; do
        both_tools keys.json "${JOB[@]}" --ioengine=$eng --iodepth=4 --output-format=json
        check "json ($eng, randrw): every key path fio writes is in storbench's" \
            keys_in "$T/f.keys.json" "$T/s.keys.json"
        keys_in "$T/f.keys.json" "$T/s.keys.json" ||
            echo "# missing: $(comm -23 <(keys "$T/f.keys.json") <(keys "$T/s.keys.json") | head -20 | tr '\n' ' ')"
    done
else
    echo "ok # SKIP fio or jq not installed: JSON key sets not compared"
fi
finish
