#!/bin/bash
# CLI tests of fio's log options beside the histogram log (src/io/log/iolog.c, logfile.c,
# inflate.c): log_unix_epoch and log_alternate_epoch (+ its clock id) move the lines' times
# to a clock's epoch; log_max_value makes an averaged line the window's largest value;
# bwavgtime / iopsavgtime are the samples an averaged bandwidth / IOPS log is made of (a
# line only when a sample ended in its window, as fio) and the report's bw / iops samples
# (when the log interval divides them); log_entries and log_compression
# are how much of a log is written at a time (seen in the write(2)s, with strace);
# log_store_compressed writes fio's .log.fz (zlib streams of fio's binary samples), which
# fio --inflate-log and storbench io --inflate-log print alike, for storbench's file and
# fio's; log_compression_cpus pins the deflate (sched_setaffinity, with strace). Without
# fio, jq or strace those parts skip, visibly.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

"$SB_BIN" io --filename="$T/f" --size=8m --rw=write >/dev/null 2>&1
JOB=(--name=l --filename="$T/f" --size=8m --bs=4k --rw=randread --ioengine=psync)
TB=(--time_based --runtime=1)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
jqe() { jq -e "$@" >/dev/null 2>&1; }
up_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# ---- the epoch of the times ----
t0=$(now_ms)
check_exit "log_unix_epoch=1" 0 "$SB_BIN" io "${JOB[@]}" "${TB[@]}" --write_lat_log=u --write_hist_log=u \
    --log_hist_msec=100 --log_unix_epoch=1
t1=$(now_ms)
check "... the lat log's times are Unix ms of the run" \
    awk -F', ' -v a="$t0" -v b="$t1" '$1 < a || $1 > b { exit 1 } END { exit NR == 0 }' u_lat.1.log
check "... and the histogram log's" \
    awk -F', ' -v a="$t0" -v b="$t1" '$1 < a || $1 > b { exit 1 } END { exit NR == 0 }' u_clat_hist.1.log
check_exit "log_unix_epoch=0 (the default)" 0 "$SB_BIN" io "${JOB[@]}" --write_lat_log=r
check "... times since the job began" awk -F', ' '$1 > 60000 { exit 1 } END { exit NR == 0 }' r_lat.1.log
u0=$(up_ms)
check_exit "log_alternate_epoch=1, log_alternate_epoch_clock_id=7 (boottime)" 0 "$SB_BIN" io "${JOB[@]}" \
    --write_lat_log=b --log_alternate_epoch=1 --log_alternate_epoch_clock_id=7
u1=$(up_ms)
check "... the times are ms since boot (/proc/uptime)" \
    awk -F', ' -v a="$((u0 - 20))" -v b="$((u1 + 20))" '$1 < a || $1 > b { exit 1 } END { exit NR == 0 }' b_lat.1.log
check_exit "log_unix_epoch with log_alternate_epoch_clock_id=10 (no such clock) is refused" 2 "$SB_BIN" io \
    "${JOB[@]}" --write_lat_log=b --log_unix_epoch=1 --log_alternate_epoch_clock_id=10
check_one_line "... in one line naming it" "log_alternate_epoch_clock_id 10: no such clock"
check_exit "log_alternate_epoch_clock_id=12 is refused" 2 "$SB_BIN" io "${JOB[@]}" --write_lat_log=b \
    --log_alternate_epoch=1 --log_alternate_epoch_clock_id=12
check_one_line "... in one line naming it" "log_alternate_epoch_clock_id"

# ---- log_max_value: with it the largest line is the job's largest latency ----
if command -v jq >/dev/null; then
    for m in 0 1; do
        # windows of a second: each holds thousands of I/Os, so a mean is below the largest
        "$SB_BIN" io "${JOB[@]}" --time_based --runtime=2 --write_lat_log=m$m --log_avg_msec=1000 --log_max_value=$m \
            --output-format=json >"$T/m$m.json" 2>/dev/null
    done
    lmax() { awk -F', ' '$2 > m { m = $2 } END { print m + 0 }' "$1"; }
    jmax=$(jq '.jobs[0].read.clat_ns.max' "$T/m1.json")
    check "log_max_value=1: the largest averaged line is the job's clat max ($(lmax m1_clat.1.log) = $jmax)" \
        test "$(lmax m1_clat.1.log)" = "$jmax" -a "$(grep -c . m1_clat.1.log)" -ge 2
    jmax=$(jq '.jobs[0].read.clat_ns.max' "$T/m0.json")
    check "log_max_value=0: the lines are means, below the job's max ($(lmax m0_clat.1.log) < $jmax)" \
        test "$(lmax m0_clat.1.log)" -lt "$jmax"
else
    echo "ok # SKIP log_max_value against the job's figures: jq not installed"
fi

# ---- bwavgtime, iopsavgtime ----
check_exit "log_avg_msec=100 bwavgtime=300 iopsavgtime=200" 0 "$SB_BIN" io "${JOB[@]}" "${TB[@]}" \
    --write_bw_log=a --write_iops_log=a --log_avg_msec=100 --bwavgtime=300 --iopsavgtime=200
check "... a bandwidth line per 300 ms sample, at its end" \
    awk -F', ' '$1 % 300 { exit 1 } END { exit NR < 2 }' a_bw.1.log
check "... an IOPS line per 200 ms sample, at its end" \
    awk -F', ' '$1 % 200 { exit 1 } END { exit NR < 3 }' a_iops.1.log
check "... the bandwidth is KiB/s (4 x the IOPS of 4 KiB I/Os, as fio's), within a third" \
    awk -F', ' 'NR == FNR { if ($1 % 600 == 0) i[$1] = $2; next } ($1 in i) && i[$1] > 0 {
                r = $2 / (4 * i[$1]); if (r < 0.67 || r > 1.5) exit 1; n++ } END { exit n == 0 }' a_iops.1.log a_bw.1.log
if command -v jq >/dev/null; then
    check_exit "bwavgtime=2000 iopsavgtime=250 (log_interval=250ms), 3 s" 0 "$SB_BIN" io "${JOB[@]}" \
        --time_based --runtime=3 --log_interval=250ms --bwavgtime=2000 --iopsavgtime=250 --output-format=json
    check "... the report's samples: 1 of bandwidth, 11 or 12 of IOPS ($(jq -c '.jobs[0].read | [.bw_samples, .iops_samples]' "$T/out"))" \
        jqe '.jobs[0].read | .bw_samples == 1 and (.iops_samples == 11 or .iops_samples == 12)' "$T/out"
    check "... their means agree (KiB/s = 4 x IOPS, within a third)" \
        jqe '.jobs[0].read | .bw_mean / (4 * .iops_mean) | . > 0.67 and . < 1.5' "$T/out"
else
    echo "ok # SKIP bwavgtime and iopsavgtime in the report: jq not installed"
fi
check_exit "bwavgtime=0 is refused" 2 "$SB_BIN" io "${JOB[@]}" --bwavgtime=0
check_one_line "... in one line naming it" "bwavgtime"

# ---- how much is written at a time ----
if command -v strace >/dev/null; then
    writes() { grep -c "write([0-9]*<[^>]*$1>" "$T/tr"; }
    strace -f -y -e trace=write -o "$T/tr" "$SB_BIN" io "${JOB[@]}" --write_iops_log=e --log_entries=1024 >/dev/null 2>&1
    check "log_entries=1024: 2048 lines in 2 writes" test "$(writes e_iops.1.log)" = 2 -a "$(grep -c . e_iops.1.log)" = 2048
    strace -f -y -e trace=write -o "$T/tr" "$SB_BIN" io "${JOB[@]}" --write_iops_log=e --log_entries=4096 >/dev/null 2>&1
    check "log_entries=4096: in 1 write" test "$(writes e_iops.1.log)" = 1 -a "$(grep -c . e_iops.1.log)" = 2048
    strace -f -y -e trace=write -o "$T/tr" "$SB_BIN" io "${JOB[@]}" --write_iops_log=c --log_compression=4k >/dev/null 2>&1
    check "log_compression=4k: the text log in writes of at most 4 KiB" \
        sh -c "[ $(writes c_iops.1.log) -ge 8 ] && ! grep 'c_iops.1.log' '$T/tr' | grep -qE '= ([5-9][0-9]{3}|[0-9]{5,})\$' && [ \$(grep -c . c_iops.1.log) = 2048 ]"
    strace -f -e trace=sched_setaffinity -o "$T/tr" "$SB_BIN" io "${JOB[@]}" --write_lat_log=p \
        --log_store_compressed=1 --log_compression=4k --log_compression_cpus=0 >/dev/null 2>&1
    check "log_compression_cpus=0: each deflate pinned to CPU 0 (and put back)" \
        test "$(grep -cE 'sched_setaffinity\(0, [0-9]+, \[0\]\) += 0' "$T/tr")" -ge 8
else
    echo "ok # SKIP log_entries, log_compression, log_compression_cpus: strace not installed"
fi
check_exit "log_compression_cpus without log_store_compressed warns" 0 "$SB_BIN" io "${JOB[@]}" \
    --write_lat_log=w --log_compression_cpus=0
check "... naming it" grep -q "log_compression_cpus has no effect without log_store_compressed" "$T/err"
check_exit "log_compression=512 is refused" 2 "$SB_BIN" io "${JOB[@]}" --write_lat_log=w --log_compression=512
check_one_line "... in one line naming it" "log_compression"

# ---- stored compressed: fio's .log.fz ----
check_exit "log_store_compressed=1" 0 "$SB_BIN" io "${JOB[@]}" --write_lat_log=z --write_bw_log=z \
    --log_store_compressed=1 --log_compression=4k --log_offset=1
check "... z_clat.1.log.fz, no text log" test -s z_clat.1.log.fz -a -s z_bw.1.log.fz -a ! -e z_clat.1.log
check_exit "--inflate-log prints it" 0 "$SB_BIN" io --inflate-log=z_clat.1.log.fz
check "... 2048 lines 'msec, ns, 0, 4096, offset, 0'" \
    sh -c "[ \$(grep -cE '^[0-9]+, [0-9]+, 0, 4096, [0-9]+, 0\$' '$T/out') = 2048 ] && [ \$(grep -c . '$T/out') = 2048 ]"
check_exit "--inflate-log of a file that is not one: exit 2" 2 "$SB_BIN" io --inflate-log="$T/f"
check_one_line "... in one line" "not a compressed fio log"
if command -v fio >/dev/null; then
    fio --inflate-log=z_clat.1.log.fz >"$T/fio.txt" 2>/dev/null
    "$SB_BIN" io --inflate-log=z_clat.1.log.fz >"$T/sb.txt" 2>/dev/null
    check "fio --inflate-log prints storbench's .fz as storbench does" cmp -s "$T/fio.txt" "$T/sb.txt"
    fio "${JOB[@]}" --write_lat_log=y --write_bw_log=y --log_store_compressed=1 --log_compression=4k \
        --log_prio=1 --output=/dev/null >/dev/null 2>&1
    fio --inflate-log=y_clat.1.log.fz >"$T/fio.txt" 2>/dev/null
    "$SB_BIN" io --inflate-log=y_clat.1.log.fz >"$T/sb.txt" 2>/dev/null
    check "storbench --inflate-log prints fio's .fz (log_prio) as fio does" \
        sh -c "cmp -s '$T/fio.txt' '$T/sb.txt' && [ \$(grep -c ', 0x[0-9a-f]\{4\}\$' '$T/sb.txt') = 2048 ]"
else
    echo "ok # SKIP fio --inflate-log on storbench's .fz and the other way: fio not installed"
fi
finish
