#!/bin/bash
# CLI tests of the I/O engine: `storbench io` text and JSON output (the JSON
# parses and has the keys docs/io-json.md documents), the bad-input cases that
# must give one clear line, and `run fio --quick` / `run iozone --quick`
# recording results in a result file.
. "$(dirname "$0")/lib.sh"

# jq -e quietly: true when the expression holds.
jqok() { jq -e "$@" >/dev/null 2>&1; }

D="$T/target"
mkdir -p "$D"

# ---- storbench io: text ----
check_exit "io --help" 0 "$SB" io --help
check "io --help prints usage" grep -q "usage: storbench io" "$T/out"
check_exit "io randread psync" 0 "$SB" io --rw randread --bs 4k --size 1m --directory "$D"
check "io text: read line" grep -Eq '^  read: IOPS=[0-9.]+[kM]?, BW=' "$T/out"
check "io text: percentiles" grep -q '99.99th=' "$T/out"
check "io removes its files" test "$(ls -A "$D" | wc -l)" -eq 0

# ---- storbench io: JSON ----
check_exit "io json" 0 "$SB" io --rw randrw --rwmixread 70 --bs 8k --size 2m --ioengine libaio \
    --iodepth 4 --direct --directory "$D" --output-format storbench-json
J="$T/io.json"
cp "$T/out" "$J"
check "json parses" jqok . "$J"
for k in storbench_version format_version job elapsed_s interrupted read write total per_second; do
    check "json has $k" jqok "has(\"$k\")" "$J"
done
for k in rw ioengine bs_bytes size_bytes offset_bytes iodepth effective_iodepth numjobs direct \
         runtime_s time_based ramp_time_s startdelay_s rwmixread_pct fsync_every end_fsync \
         norandommap randseed directory; do
    check "json job has $k" jqok ".job | has(\"$k\")" "$J"
done
for d in read write total; do
    for k in ios bytes iops bw_bytes_per_s lat_ns; do
        check "json $d has $k" jqok ".$d | has(\"$k\")" "$J"
    done
done
for k in samples min max mean stddev percentiles; do
    check "json lat_ns has $k" jqok ".total.lat_ns | has(\"$k\")" "$J"
done
for p in p1 p5 p10 p20 p30 p40 p50 p60 p70 p80 p90 p95 p99 p99.5 p99.9 p99.95 p99.99; do
    check "json percentile $p" jqok ".total.lat_ns.percentiles | has(\"$p\")" "$J"
done
check "json: every block of both files once" jqok '.total.ios == 256 and .total.bytes == 2097152' "$J"
check "json: reads + writes = total" jqok '.read.ios + .write.ios == .total.ios and .total.lat_ns.samples == .total.ios' "$J"
check "json: job echoes flags" jqok '.job.rw == "randrw" and .job.bs_bytes == 8192 and .job.iodepth == 4 and .job.direct == true and .job.rwmixread_pct == 70' "$J"
check "json: percentiles ordered" jqok '.total.lat_ns.percentiles | [.[]] | . == sort' "$J"
for k in user_s sys_s wall_s ios user_ns_per_io sys_ns_per_io user_pct sys_pct; do
    check "json cpu has $k" jqok ".cpu | has(\"$k\")" "$J"
done
check "json: cpu covers every I/O" jqok '.cpu.ios == .total.ios and .cpu.user_s >= 0 and .cpu.sys_s >= 0' "$J"
check "io text: cpu line" sh -c "'$SB' io --rw randread --size 1m --directory '$D' | grep -Eq '^  cpu: user=[0-9.]+s, sys=[0-9.]+s; per I/O: user=[0-9]+ ns, sys=[0-9]+ ns'"

# ---- --cpus_allowed ----
cpu0=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
check_exit "io cpus_allowed split" 0 "$SB" io --rw randread --size 1m --numjobs 2 --directory "$D" \
    --cpus_allowed "$cpu0" --cpus_allowed_policy split --output-format storbench-json
check "json: cpus_allowed echoed" jqok ".job.cpus_allowed == \"$cpu0\" and .job.cpus_allowed_policy == \"split\" and .total.ios == 512" "$T/out"
# as fio's: the value parses, the job fails when it starts (a runtime failure)
check_exit "io cpus_allowed: CPU not available" 1 "$SB" io --size 1m --directory "$D" --cpus_allowed 1023
check_one_line "cpus_allowed refusal: one line" "may use"
check_exit "io cpus_allowed: not a list" 2 "$SB" io --size 1m --directory "$D" --cpus_allowed 3-1
check_exit "io cpus_allowed_policy: unknown" 2 "$SB" io --size 1m --directory "$D" --cpus_allowed_policy spread

check_exit "io time based json" 0 "$SB" io --rw read --size 256k --runtime 1200ms --time_based \
    --directory "$D" --output-format storbench-json
check "json: one per-second sample" jqok '(.per_second.iops | length) == 1 and (.per_second.bw_bytes_per_s | length) == 1' "$T/out"

# ---- Ctrl-C: what was measured so far, exit 130 ----
"$SB" io --rw randread --size 1m --runtime 60 --time_based --directory "$D" --output-format storbench-json \
    >"$T/int.json" 2>"$T/int.err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
check "io interrupted exits 130" test $? -eq 130
check "io interrupted still prints its JSON" jqok '.interrupted == true and .total.ios > 0' "$T/int.json"
check "io interrupted removes its file" test "$(ls -A "$D" | wc -l)" -eq 0

# ---- bad input: one clear line ----
check_exit "io unknown engine" 2 "$SB" io --ioengine windowsaio --directory "$D"
check_one_line "unknown engine names the working ones" "engines that work here: psync"
check_exit "io bs not a multiple of the logical block size" 2 "$SB" io --rw write --bs 4196 --size 41960 --direct --directory "$D"
check_one_line "bs/logical block size: one line" "logical block size"
check_exit "io iodepth with a sync engine" 0 "$SB" io --ioengine psync --iodepth 8 --size 64k --directory "$D"
check_one_line "sync engine iodepth: one warning" "no effect"
head -c 8192 /dev/zero >"$T/short"
check_exit "io read job on a short file" 2 "$SB" io --rw read --size 1m --filename "$T/short"
check_one_line "short file: one line" "shorter"
check_exit "io size beyond free space" 1 "$SB" io --rw write --size 1000000t --directory "$D"
check_one_line "no space: one line" "free"
check_exit "io bad rw" 2 "$SB" io --rw sideways --directory "$D"
check_one_line "bad rw: one line" "sideways"
# neither a file nor a directory: fio's current directory, in a private directory there
mkdir -p "$T/cwd"
check_exit "io without a file or directory runs in the current directory" 0 \
    sh -c "cd '$T/cwd' && '$SB_BIN' io --name=here --rw=read --size=1m --quiet --output-format=terse"
check "... and leaves nothing there" test -z "$(ls -A "$T/cwd")"
# fio runs mmap with direct=1 (the file opened O_DIRECT and mapped): so does storbench,
# saying that the copies still go through the page cache
check_exit "io mmap direct runs, as fio's" 0 "$SB" io --ioengine mmap --direct --directory "$D" --size 1m \
    --rw randread
check "... with one warning naming the page cache" grep -q "warning: .*mmap engine's I/O goes through the page cache" "$T/err"
check "bad input leaves nothing behind" test "$(ls -A "$D" | wc -l)" -eq 0

# ---- workloads fio and iozone at --quick scale ----
R="$T/io-results.json"
check_exit "run fio --quick" 0 "$SB" run fio --quick --target "$D" --result "$R" -i A -n 1 --exact-runs \
    -o size=16m -o runtime=1
check "fio result recorded" jqok '.results[] | select(.test == "fio") | .entries[0].mean > 0' "$R"
# the seed's line, and the overrides of the quick run named before "Scale: Quick" (issue 26)
check "fio option line: the seed's, with the overrides" jqok '.results[] | select(.test == "fio") | .description == "Type: Random Write - IO Engine: POSIX AIO - Buffered: No - Direct: Yes - Block Size: 4KB - Disk Target: Default Test Directory - Size: 16m - Runtime: 1 - Result: MB/s - Scale: Quick"' "$R"
check "fio secondary iops and lat_p99" jqok '[.results[] | select(.test == "fio") | .entries[0].secondary[].name] | index("iops") != null and index("lat_p99") != null' "$R"
check_exit "run fio --quick libaio seq read" 0 "$SB" run fio --quick --target "$D" --result "$T/r2.json" -i A -n 1 \
    --exact-runs -o type=read -o engine=libaio -o size=8m -o runtime=1
check "fio seq read recorded" jqok '.results[0].description | startswith("Type: Sequential Read - IO Engine: Linux AIO")' "$T/r2.json"
check_exit "run fio bad combination" 2 "$SB" run fio --quick --target "$D" --result "$R" -i B -o buffered=yes
check_one_line "fio buffered+direct: one line" "Buffered and Direct"
for t in write read; do
    check_exit "run iozone --quick $t" 0 "$SB" run iozone --quick --target "$D" --result "$R" -i "iozone $t" -n 1 --exact-runs -o test=$t
done
check "iozone results recorded" test "$(jq '[.results[] | select(.test == "iozone") | .entries[0].mean > 0] | length' "$R")" -eq 2
check "iozone option line" jqok '[.results[] | select(.test == "iozone") | .description] | index("Record Size: 4Kb - File Size: 512MB - Disk Test: Read Performance - Scale: Quick") != null' "$R"
check "runs leave nothing behind" test "$(ls -A "$D" | wc -l)" -eq 0

# ---- a new fio figure joins the seed page's result (same title, option line, unit) ----
S="$T/seed001.json"
check_exit "import seed 001" 0 "$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result "$S"
n_before=$(jq '[.results[] | select(.title == "Flexible IO Tester") | .entries | length] | add' "$S")
# Not --quick (a quick figure gets its own "Scale: Quick" result): the seed job at a small
# size and length, options the seed's option line does not show.
check_exit "run fio into the imported result" 0 "$SB" run fio --target "$D" --result "$S" \
    -i "storbench" -n 1 --exact-runs -o size=8m -o runtime=1 -o startdelay=0 -o ramp=0
check "fio figure joins the seed's Random Write result" test \
    "$(jq '[.results[] | select(.title == "Flexible IO Tester") | .entries | length] | add' "$S")" -eq $((n_before + 1))
check "no new fio result was created" test \
    "$(jq '[.results[] | select(.title == "Flexible IO Tester")] | length' "$S")" -eq 2

# ---- fio's queueing: each I/O submitted on its own by default, batches when asked ----
# Counted with strace (skipped where it cannot trace): 64 writes of 4 KiB at depth 8.
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null &&
    "$SB" io --filename "$T/q" --rw write --size 4k --ioengine libaio --direct >/dev/null 2>&1; then
    submits() {
        strace -f -e trace=io_submit -o "$T/strace" "$SB" io --filename "$T/q" --rw write --bs 4k \
            --size 256k --ioengine libaio --iodepth 8 --direct "$@" >/dev/null 2>&1
        grep -c 'io_submit(' "$T/strace"
    }
    check "libaio: one io_submit per I/O by default" test "$(submits)" -eq 64
    check "libaio: batches of 8 with iodepth_batch_submit=8, _complete_min=8" \
        test "$(submits --iodepth_batch_submit 8 --iodepth_batch_complete_min 8)" -eq 8
    # as fio: a new file of a write job is fallocated, and nothing syncs it before the run
    rm -f "$T/q"
    strace -f -e trace=fsync,fdatasync,fallocate -o "$T/strace" "$SB" io --filename "$T/q" --rw write \
        --size 256k --ioengine libaio --iodepth 8 --direct >/dev/null 2>&1
    check "write job: the new file is fallocated" grep -q 'fallocate(' "$T/strace"
    check "write job: no sync before or after the run (no end_fsync)" test "$(grep -c 'sync(' "$T/strace")" -eq 0
    "$SB" io --filename "$T/q" --size 256k --ioengine libaio --iodepth 8 --direct --iodepth_batch 4 \
        --output-format storbench-json >"$T/q.json"
    check "io json: batching that ran" jqok '.job.iodepth_batch_submit == 4 and .job.iodepth_batch_complete_min == 1 and .job.iodepth_batch_complete_max == 1' "$T/q.json"
    rm -f "$T/q"
else
    ok "# skip: strace cannot trace here (queueing counts)"
fi
check_exit "io: complete_max below complete_min" 2 "$SB" io --filename "$T/q" --ioengine libaio \
    --iodepth 8 --iodepth_batch_complete_min 4 --iodepth_batch_complete_max 2
check_one_line "io: complete_max below complete_min: one line" "iodepth_batch_complete_max"

finish
