#!/bin/bash
# CLI tests of fio's examples and the fio options they needed (issue 27): every example
# of tests/data/fio-examples that uses storbench's engines runs at tiny scale or is refused
# with exit 2 and one line naming the file's line and the option (bench/fio-examples.sh
# --tsv does the trying); none fails; and what the options do, seen in fio's log files
# with log_offset: rw=read:-8k reads backwards, random_distribution=zoned puts its share
# of the I/Os in its zone, zipf concentrates them on few blocks, blockalign aligns them;
# zonemode=strided skips zoneskip after each zone; rate_process=poisson spaces I/Os
# unevenly; the log format is fio's; rate_min that is not met fails the job (exit 1); gtod_reduce
# prints no percentiles.
. "$(dirname "$0")/lib.sh"

D="$T/target"
mkdir -p "$D"

# ---- fio's examples ----
SB="$SB_BIN" SIZE=1m RUNTIME=1 bash "$SRC/bench/fio-examples.sh" --tsv >"$T/ex" 2>"$T/exerr"
check "bench/fio-examples.sh runs" test $? = 0 -a -s "$T/ex"
runs=$(awk -F '\t' '$2 == "runs"' "$T/ex" | wc -l)
refused=$(awk -F '\t' '$2 == "refused"' "$T/ex" | wc -l)
fails=$(awk -F '\t' '$2 == "fails"' "$T/ex" | wc -l)
echo "# fio examples: $runs run, $refused refused, $fails fail"
awk -F '\t' '$2 == "fails" { print "# fails: " $1 " " $3 }' "$T/ex"
check "no example fails (each runs or is refused)" test "$fails" = 0
bad=$(awk -F '\t' '$2 == "refused" && $3 !~ /^[0-9]+: (unknown option .[a-z_0-9]+.|[a-z_0-9]+: .+)$/' "$T/ex")
check "each refusal names the file's line and the option" test -z "$bad"
[ -n "$bad" ] && echo "# $bad"
check "at least 39 of fio's examples run ($runs)" test "$runs" -ge 39
for e in disk-zone-profile.fio zipf.fio rand-zones.fio backwards-read.fio null.fio ssd-steadystate.fio 1mbs_clients.fio \
    jesd219.fio waitfor.fio steadystate.fio zbd-rand-write.fio zbd-seq-read.fio zbd-rand-write-zone-reset-gc.fio \
    butterfly.fio flow.fio exitwhat.fio dedupe-global.fio sequence-distribution.fio surface-scan.fio \
    fixed-rate-submission.fio poisson-rate-submission.fio sprandom.fio \
    example_latency_steadystate.fio cmdprio-bssplit.fio cmdprio-percentage.fio enospc-pressure.fio \
    zbd-rand-write-trim-gc.fio; do
    check "$e runs" grep -q "^$e	runs" "$T/ex"
done
# its trim job (bs=256M, the zone size) resets zones: neither its bs nor rw=randtrim with
# zonemode=zbd is refused (tests/cli/test_io_zbd.sh checks what the trims do)
check "zbd-rand-write-trim-gc.fio is not refused for its trim job's bs or rw" \
    test -z "$(awk -F '\t' '$1 == "zbd-rand-write-trim-gc.fio" { print $3 }' "$T/ex" | grep -E 'block size|bs|rw|trim|zonemode')"
# numa.fio's job2 asks for nodes 0-1: refused naming node 1 on a machine with one node
if [ -e /sys/devices/system/node/node1 ]; then
    check "numa.fio runs (this machine has node 1)" grep -q "^numa.fio	runs" "$T/ex"
else
    check "numa.fio is refused naming NUMA node 1 (this machine has one node)" \
        grep -q "^numa.fio	refused	19: numa_cpu_nodes: NUMA node 1 does not exist" "$T/ex"
fi

# ---- the options, seen in fio's logs ----
cd "$T" || exit 1
run() { "$SB" io --directory="$D" --quiet --write_lat_log=l --log_offset=1 "$@" >"$T/out" 2>"$T/err"; }
run --size=64k --bs=4k --rw=read:-8k
check "rw=read:-8k runs" test $? = 0
# offsets in issue order: 0, then from the end down (fio's backwards read)
check "rw=read:-8k reads backwards" test "$(cut -d, -f5 l_lat.1.log | tr -d ' ' | head -4 | tr '\n' ' ')" = "0 61440 57344 53248 "
check "the lat log's lines are fio's: msec, ns, ddir, bs, offset, prio" \
    test -z "$(grep -vE '^[0-9]+, [0-9]+, 0, 4096, [0-9]+, 0$' l_lat.1.log)" -a "$(wc -l <l_lat.1.log)" = 16
check "clat and slat logs beside it (slat empty)" test -s l_clat.1.log -a -e l_slat.1.log -a ! -s l_slat.1.log
# rw=randread:8 runs (tests/cli/test_fio_pattern.sh); a count of 0 is refused
check_exit "rw=randread:0 is refused" 2 "$SB" io --directory="$D" --rw=randread:0
check_one_line "and named" "randread:0"

# zoned: 50% of the I/Os to the first 10% of the region
run --size=4m --bs=4k --rw=randread --random_distribution=zoned:50/10:50/90
n=$(wc -l <l_lat.1.log)
first=$(awk -F', ' '$5 < 419430' l_lat.1.log | wc -l)
check "zoned:50/10:50/90: 40-60 % of $n I/Os in the first 10 % ($first)" \
    test $((first * 100 / n)) -ge 40 -a $((first * 100 / n)) -le 60
# zipf:1.2 over 1024 blocks: the 10 busiest blocks take far more than 10/1024 of the I/Os
run --size=4m --bs=4k --rw=randread --random_distribution=zipf:1.2
top=$(cut -d, -f5 l_lat.1.log | sort | uniq -c | sort -rn | head -10 | awk '{ s += $1 } END { print s }')
check "zipf:1.2: the 10 busiest of 1024 blocks take over 30 % of the I/Os ($top of $(wc -l <l_lat.1.log))" \
    test $((top * 100 / $(wc -l <l_lat.1.log))) -gt 30
run --size=4m --bs=4k --rw=randread --random_distribution=random
top=$(cut -d, -f5 l_lat.1.log | sort | uniq -c | sort -rn | head -10 | awk '{ s += $1 } END { print s }')
check "random: each block once (the 10 busiest: 10 I/Os)" test "$top" = 10
check_exit "zipf:1 is refused" 2 "$SB" io --directory="$D" --random_distribution=zipf:1
check_one_line "named" "random_distribution"
check_exit "zoned shares not 100 % are refused" 2 "$SB" io --directory="$D" --random_distribution=zoned:50/10:40/90
check_one_line "named" "random_distribution"
run --size=1m --bssplit=4k/50:8k/50 --blockalign=8k --rw=randread
check "blockalign=8k: every offset a multiple of 8k" test -z "$(awk -F', ' '$5 % 8192' l_lat.1.log)" -a -s l_lat.1.log

run --size=64k --bs=4k --rw=read --zonemode=strided --zonesize=8k --zoneskip=16k
check "zonemode=strided: 8k done, 16k skipped, to the region's end" \
    test "$(cut -d, -f5 l_lat.1.log | tr -d ' ' | tr '\n' ' ')" = "0 4096 24576 28672 49152 53248 "
check_exit "zonemode=zbd without a zonesize fails the run, as fio's (tests/cli/test_io_zbd.sh: what it does)" 1 \
    "$SB" io --directory="$D" --zonemode=zbd
check_one_line "named" "zonesize"
# rate_process=poisson: the same mean rate, gaps no longer even
run --size=64k --bs=4k --rate_iops=200 --rate_process=poisson
check "rate_process=poisson runs" test $? = 0 -a "$(wc -l <l_lat.1.log)" = 16
gaps=$(cut -d, -f1 l_lat.1.log | awk 'NR > 1 { d = $1 - p; if (d < 2 || d > 8) odd++ } { p = $1 } END { print odd + 0 }')
check "poisson: some gaps far from the 5 ms of an even rate ($gaps of 15)" test "$gaps" -ge 3

# averaged logs, bandwidth and IOPS logs
# (a sample every bwavgtime / iopsavgtime ms, as fio: a job shorter than one writes none)
"$SB" io --directory="$D" --quiet --size=2m --rw=randread --write_bw_log=b --write_iops_log=b --log_avg_msec=100 \
    --time_based --runtime=1 --bwavgtime=100 --iopsavgtime=100 >/dev/null 2>&1
check "bw and iops logs with log_avg_msec: averaged lines, bs 0" \
    test -s b_bw.1.log -a -s b_iops.1.log -a -z "$(grep -vE '^[0-9]+, [0-9]+, 0, 0, 0$' b_bw.1.log)"
if command -v fio2gnuplot >/dev/null; then
    fio2gnuplot -p 'b_bw.1.log' -G bw -t t >"$T/g" 2>&1 || true
    check "fio2gnuplot reads the bandwidth log" grep -q "b_bw.1.log" "$T/g"
else
    echo "ok # SKIP fio2gnuplot not installed"
fi

printf '[global]\nwrite_bw_log\n[myjob]\nsize=64k\n' >"$T/bare.fio"
"$SB" io --directory="$D" --quiet "$T/bare.fio" >/dev/null 2>&1
check "a bare write_bw_log is named after the job, as fio's" test -s myjob_bw.1.log

# rate_min: a thread kept to ~8 KiB/s by thinktime misses 1 MB/s and fails (exit 1)
check_exit "rate_min not met: exit 1" 1 "$SB" io --directory="$D" --quiet --size=1m --thinktime=500ms \
    --rate_min=1m
check "named" grep -q "rate_min 1048576 B/s not met" "$T/err"
check_exit "ratemin met: exit 0" 0 "$SB" io --directory="$D" --quiet --size=64k --rate=32k --ratemin=16k
check_exit "rate_min above rate is refused" 2 "$SB" io --directory="$D" --rate=1k --rate_min=2k

"$SB" io --directory="$D" --quiet --size=256k --gtod_reduce >"$T/out" 2>&1
# (fio's "latency   : target=0, window=0, percentile=100.00%" line is not a percentile block)
check "gtod_reduce runs and prints no latencies or percentiles" \
    test -z "$(grep -E 'lat percentiles|lat \((n|u|m)sec\)' "$T/out")" -a -n "$(grep IOPS= "$T/out")"
check_exit "threads is fio's alias of thread" 0 "$SB" io --directory="$D" --quiet --size=64k --threads=1
finish
