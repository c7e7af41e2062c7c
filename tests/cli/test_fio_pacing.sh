#!/bin/bash
# CLI tests of fio's pacing, think-time and latency options (src/io/loop/pace.c, loop.c),
# each against fio 3.33 on the same job where fio has it: thinktime_blocks thinks after
# every N I/Os (the I/O count of a time-based run near fio's, far above a think per I/O);
# thinktime_spin spends the think on the CPU; thinktime_blocks_type and thinktime_iotime
# change when a think comes; rate_ignore_thinktime: fewer I/Os with it than without (the
# rate moves on by each think instead of catching up after it; fio's exact counts on an
# idle machine, not compared here); rate_iops_min fails a job below it, as rate_min;
# max_latency and a latency_target unmet at depth 1 fail the job with ETIMEDOUT, as
# fio's; latency_target's search ends the job after the final window at the depth found
# (its report keys fio's); iodepth_low refills a drained queue (submissions at lower
# depths, as fio's); serialize_overlap keeps overlapping I/Os from being in flight
# together; the options that would change nothing alone are refused. Without fio the
# comparisons skip, visibly.
. "$(dirname "$0")/lib.sh"

fio_scratch 1048576
# invalidate=0 below: the timed jobs read the page cache, not a disk busy with others

sbj() { "$SB" io --output-format=json "$@" 2>"$T/err"; }
tot() { jq -r '.jobs[0].read.total_ios' "$1"; }
# $1 within [$2, $3]
between() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# ---- thinktime_blocks: a think after every 10 I/Os, not after each ----
J="--name=t --filename=$F --size=1m --rw=randread --invalidate=0 --runtime=1 --time_based --thinktime=20ms"
sbj $J >one.json
sbj $J --thinktime_blocks=10 >ten.json
n1=$(tot one.json) n10=$(tot ten.json)
check "thinktime_blocks=10: many more I/Os than a think per I/O ($n10 vs $n1)" test "$n10" -ge $((3 * n1))
check "thinktime per I/O: at most 51 I/Os in a second of 20 ms thinks ($n1)" between "$n1" 1 51
sbj $J --thinktime_blocks=10 --thinktime_blocks_type=issue >issue.json
check "thinktime_blocks_type=issue: a psync job counts the same I/Os" \
    between "$(tot issue.json)" $((n10 / 3)) $((n10 * 3))
if [ $have_fio = 1 ]; then
    fio --output-format=json $J --thinktime_blocks=10 >fio.json 2>/dev/null
    nf=$(tot fio.json)
    check "thinktime_blocks=10: I/O count near fio's ($n10 vs $nf)" between "$n10" $((nf / 3)) $((nf * 3))
fi

# ---- thinktime_iotime: a think after 200 ms of I/O, not after every I/O ----
sbj $J --thinktime_iotime=200ms >iot.json
check "thinktime_iotime: the thinks come by time (far more I/Os than a think each)" \
    test "$(tot iot.json)" -ge $((3 * n1))

# ---- thinktime_spin: the think on the CPU ----
K="--name=s --filename=$F --size=1m --rw=randread --invalidate=0 --runtime=1 --time_based --thinktime=10ms"
sbj $K >sleep.json
sbj $K --thinktime_spin=9ms >spin.json
u0=$(jq -r '.jobs[0].usr_cpu' sleep.json) u1=$(jq -r '.jobs[0].usr_cpu' spin.json)
check "thinktime_spin: user CPU while thinking ($u0% -> $u1%)" awk -v a="$u0" -v b="$u1" 'BEGIN { exit !(b > 2 * a && b > 1) }'

# ---- rate_ignore_thinktime: the rate catches up after a think, or moves on ----
R="--name=r --filename=$F --size=1m --rw=randread --invalidate=0 --runtime=2 --time_based --rate_iops=100 --thinktime=100ms --thinktime_blocks=10"
sbj $R >catch.json
sbj $R --rate_ignore_thinktime=1 >ign.json
nc=$(tot catch.json) ni=$(tot ign.json)
# counts in a time-based run: bounded by the rate (2 s at 100/s), ordered by the option; on
# an idle machine they are fio's exactly (190 and 110, fio's 190 and 109); not compared
# here, as a loaded machine stretches fio's own thinks (fio 40 and 101 once)
check "rate with thinktime catches up: at most the rate's 201 I/Os in 2 s ($nc)" between "$nc" 1 201
check "rate_ignore_thinktime: the thinks are lost time, fewer I/Os ($ni < $nc)" test "$ni" -lt "$nc"

# ---- rate_iops_min (and rate_min): below it the job fails ----
M="--name=m --filename=$F --size=1m --rw=randread --invalidate=0 --runtime=4 --time_based --rate_iops=50"
check_exit "rate_iops_min above the rate: exit 1" 1 "$SB" io $M --rate_iops_min=100
check "rate_iops_min: the line says so" grep -q "rate_iops_min 100 not met" "$T/err"
check_exit "rate_iops_min below the rate: exit 0" 0 "$SB" io $M --rate_iops_min=20 --rate_cycle=500
check_exit "rate_min above the rate: exit 1" 1 "$SB" io $M --rate_min=400k
check "rate_min: the line says so" grep -q "rate_min 409600 B/s not met" "$T/err"

# ---- max_latency, latency_target at depth 1: ETIMEDOUT ----
check_exit "max_latency=1us: the job fails" 1 "$SB" io --name=x --filename="$F" --size=1m --rw=randread --max_latency=1us
check "max_latency: the line names it" grep -q "exceeds max_latency 1000 ns" "$T/err"
check_exit "max_latency=10s: the job runs" 0 "$SB" io --name=x --filename="$F" --size=1m --rw=randread --max_latency=10s
if [ $have_fio = 1 ]; then
    fio --output-format=json --name=x --filename="$F" --size=1m --rw=randread --max_latency=1us 2>/dev/null | sed -n '/^{/,$p' >fio.json
    check "max_latency=1us: fio fails it too, with ETIMEDOUT (110)" test "$(jq -r '.jobs[0].error' fio.json)" = 110
fi

if "$SB" io --name=probe --filename="$F" --size=4k --ioengine=libaio --iodepth=2 >/dev/null 2>&1; then
    L="--name=l --filename=$F --ioengine=libaio --size=1m --rw=randread --iodepth=16 --time_based --runtime=30 --latency_window=200ms"
    check_exit "latency_target=1us: not met at depth 1, the job fails" 1 "$SB" io $L --latency_target=1us
    check "latency_target: the line says ETIMEDOUT's cause" grep -q "latency_target at depth 1" "$T/err"
    sbj $L --latency_target=2s >lt.json
    check "latency_target met: the job ends after the search, before its 30 s runtime" \
        test "$(jq -r '.jobs[0].job_runtime' lt.json)" -lt 5000
    check "latency_target met: the final window ran at depth 16" \
        test "$(jq -r '.jobs[0].iodepth_level["16"] > 50' lt.json)" = true
    lat='.jobs[0] | "\(.latency_depth) \(.latency_target) \(.latency_window) \(.latency_percentile)"'
    check "latency_target: fio's keys, depth 16, target in ns, window in us" \
        test "$(jq -r "$lat" lt.json)" = "16 2000000000 200000 100"
    "$SB" io $L --latency_target=2s --output-format=normal >lt.txt 2>"$T/err"
    check "latency_target: fio's normal line" \
        grep -q "latency   : target=2000000000, window=200000, percentile=100.00%, depth=16" lt.txt
    if [ $have_fio = 1 ]; then
        fio --output-format=json $L --latency_target=2s >fio.json 2>/dev/null
        check "latency_target met: fio ends early too, at depth 16" \
            test "$(jq -r '(.jobs[0].job_runtime < 5000) and (.jobs[0].latency_depth == 16)' fio.json)" = true
        check "latency_target: the keys equal fio's" test "$(jq -r "$lat" lt.json)" = "$(jq -r "$lat" fio.json)"
    fi

    # ---- iodepth_low: a full queue drains to 4 before it is refilled ----
    D="--name=d --filename=$F --ioengine=libaio --size=1m --rw=randread --iodepth=16"
    sbj $D >full.json
    sbj $D --iodepth_low=4 >low.json
    l16=$(jq -r '.jobs[0].iodepth_level["16"]' full.json) l4=$(jq -r '.jobs[0].iodepth_level["16"]' low.json)
    check "iodepth_low=4: fewer submissions at the top depth ($l16% -> $l4%)" \
        awk -v a="$l16" -v b="$l4" 'BEGIN { exit !(b < a - 20) }'
    check "iodepth_low=4: the same 256 I/Os" test "$(tot low.json)" = 256
    if [ $have_fio = 1 ]; then
        lv='.jobs[0].iodepth_level | [.[] | . * 1000 | round] | @csv'
        fio --output-format=json $D --iodepth_low=4 >fio.json 2>/dev/null
        check "iodepth_low=4: the IO depths map is fio's ($(jq -r "$lv" low.json))" \
            test "$(jq -r "$lv" low.json)" = "$(jq -r "$lv" fio.json)"
        sbj $D --iodepth=12 >d12.json
        fio --output-format=json $D --iodepth=12 >fio.json 2>/dev/null
        check "iodepth=12: the IO depths map is fio's (depth 12 counts under 8)" \
            test "$(jq -r "$lv" d12.json)" = "$(jq -r "$lv" fio.json)"
    fi

    # ---- serialize_overlap: overlapping writes are not in flight together ----
    S="--name=o --filename=$T/g --ioengine=libaio --size=16k --rw=randwrite --norandommap --iodepth=8 --number_ios=400 --time_based --runtime=20"
    sbj $S >free.json
    sbj $S --serialize_overlap=1 >ser.json
    a=$(jq -r '.jobs[0].iodepth_level["8"]' free.json) b=$(jq -r '.jobs[0].iodepth_level["8"]' ser.json)
    check "serialize_overlap: 4 blocks, same-block writes wait, so the queue is shallower (at depth 8: $a% -> $b%)" \
        awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < a) }'
    check "serialize_overlap: every write done" test "$(jq -r '.jobs[0].write.total_ios' ser.json)" = 400
else
    echo "ok # SKIP latency_target, iodepth_low, serialize_overlap: libaio cannot run here"
fi

# ---- refused where they would change nothing ----
for o in thinktime_spin=1ms thinktime_blocks=4 thinktime_iotime=1 thinktime_blocks_type=issue; do
    check_exit "$o without thinktime: refused" 2 "$SB" io --filename="$F" --size=1m --$o
done
check_exit "rate_ignore_thinktime without a rate: refused" 2 "$SB" io --filename="$F" --size=1m --thinktime=1ms --rate_ignore_thinktime
check_exit "rate_cycle without rate_min: refused" 2 "$SB" io --filename="$F" --size=1m --rate_cycle=500
check_exit "latency_window without latency_target: refused" 2 "$SB" io --filename="$F" --size=1m --latency_window=1s
check_exit "serialize_overlap on psync (one I/O at a time): taken, as fio takes it" 0 "$SB" io --filename="$F" --size=1m --serialize_overlap
check "... with one line saying it has no effect" grep -q "serialize_overlap has no effect with one I/O at a time" "$T/err"
check_exit "iodepth_low on psync: taken, as fio takes it (a job file's habit)" 0 "$SB" io --filename="$F" --size=1m --iodepth=8 --iodepth_low=2
check "... with one line: the queue's depth has no effect there" grep -q "iodepth 8 has no effect with one I/O at a time (psync)" "$T/err"
check_exit "iodepth_low=1 at iodepth 1 (fio's default meaning): accepted" 0 "$SB" io --filename="$F" --size=1m --iodepth_low=1
check_exit "thinktime_spin above thinktime: refused" 2 "$SB" io --filename="$F" --size=1m --thinktime=1ms --thinktime_spin=2ms

[ "$_failures" -eq 0 ]
