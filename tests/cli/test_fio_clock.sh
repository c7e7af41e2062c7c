#!/bin/bash
# CLI tests of fio's clock options: clocksource=gettimeofday times every I/O in whole
# microseconds (each latency of a per-I/O log a multiple of 1000 ns), clock_gettime and
# cpu (the TSC) in nanoseconds; cpu warns exactly where the kernel finds the TSC not
# invariant, and a time-based job on it lasts its runtime (a rate calibrated too fast
# would end it early); gtod_cpu=N starts a thread pinned to CPU N ("sb-gtod") whose
# gettimeofday time the jobs read (whole microseconds again), a job with cpus_allowed
# leaves that CPU to it, and a CPU the machine lacks fails the run in one line.
. "$(dirname "$0")/lib.sh"
io() { "$SB_BIN" io --quiet "$@"; }
jqv() { jq -r "$1" "$2" 2>/dev/null; }
cd "$T" || exit 1
head -c 1M /dev/urandom >"$T/f"
JOB=(--filename="$T/f" --rw=randread --bs=4k --size=1m --ioengine=psync)

# lats LOG: the latency column of a per-I/O log; whole_us LOG: every one a multiple of 1000
lats() { cut -d, -f2 "$1" | tr -d ' '; }
whole_us() { test -s "$1" && [ "$(lats "$1" | awk '$1 % 1000' | wc -l)" -eq 0 ]; }
some_ns() { test -s "$1" && [ "$(lats "$1" | awk '$1 % 1000' | wc -l)" -gt 0 ]; }

for cs in clock_gettime gettimeofday cpu; do
    check_exit "clocksource=$cs runs" 0 io "${JOB[@]}" --clocksource=$cs --write_lat_log="$T/$cs" \
        --output-format=json
    check "... its 256 I/Os reported" test "$(jqv '.jobs[0].read.total_ios' "$T/out")" = 256
    check "... and the option among the job's options, as fio's JSON" \
        test "$(jqv '.jobs[0]."job options".clocksource' "$T/out")" = $cs
done
check "gettimeofday: every latency whole microseconds ($(lats "$T/gettimeofday_lat.1.log" | head -3 | tr '\n' ' '))" \
    whole_us "$T/gettimeofday_lat.1.log"
check "clock_gettime: nanoseconds ($(lats "$T/clock_gettime_lat.1.log" | head -3 | tr '\n' ' '))" \
    some_ns "$T/clock_gettime_lat.1.log"
check "cpu: nanoseconds from the TSC ($(lats "$T/cpu_lat.1.log" | head -3 | tr '\n' ' '))" \
    some_ns "$T/cpu_lat.1.log"
check_exit "clocksource=sundial: exit 2" 2 io "${JOB[@]}" --clocksource=sundial
check_one_line "... naming the clocks" "gettimeofday"

# fio's warning where the TSC is not invariant; Linux's nonstop_tsc flag is the same
# CPUID bit, so the warning comes exactly where /proc/cpuinfo lacks it
check_exit "clocksource=cpu --parse-only" 0 io --name=j "${JOB[@]}" --clocksource=cpu --parse-only
if grep -qw nonstop_tsc /proc/cpuinfo; then
    check "... no warning: the TSC is invariant here" sh -c "! grep -q 'may not be reliable' '$T/err'"
else
    check "... fio's warning: the TSC is not invariant here" grep -q 'clocksource=cpu may not be reliable' "$T/err"
fi
# the end of a time-based job is read on the job's clock: on a TSC whose rate were
# calibrated too high the job would end before its second
t0=$(date +%s%N)
check_exit "clocksource=cpu time_based runtime=1" 0 io "${JOB[@]}" --clocksource=cpu --time_based \
    --runtime=1 --output-format=json
t1=$(date +%s%N)
check "... lasted its second ($(((t1 - t0) / 1000000)) ms)" test $(((t1 - t0) / 1000000)) -ge 990

# gtod_cpu: the time thread, pinned, read by the jobs
last=$(($(nproc) - 1))
"$SB_BIN" io --quiet "${JOB[@]}" --time_based --runtime=3 --gtod_cpu=$last --write_lat_log="$T/gtod" \
    --output-format=json >"$T/gtod.json" 2>"$T/gtod.err" &
pid=$!
tid=
for _ in $(seq 50); do
    for s in /proc/$pid/task/*/comm; do
        [ "$(cat "$s" 2>/dev/null)" = sb-gtod ] && tid=$(basename "$(dirname "$s")")
    done
    [ -n "$tid" ] && break
    sleep 0.1
done
check "gtod_cpu=$last: a thread sb-gtod runs (task $tid)" test -n "$tid"
aff=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$pid/task/$tid/status" 2>/dev/null)
check "... pinned to CPU $last ($aff)" test "$aff" = "$last"
wait $pid
rc=$?
check "... the job ran and reported (exit $rc)" test $rc = 0 -a "$(jqv '.jobs[0].read.total_ios' "$T/gtod.json")" -gt 0
check "... its latencies from the thread's gettimeofday: whole microseconds" whole_us "$T/gtod_lat.1.log"
check "... the thread ended with the job" sh -c "! grep -qs sb-gtod /proc/$pid/task/*/comm"
if [ "$last" -gt 0 ]; then
    # fio's: a job placed with cpus_allowed leaves the time thread's CPU
    "$SB_BIN" io --quiet "${JOB[@]}" --time_based --runtime=2 --gtod_cpu=$last --cpus_allowed=0-$last \
        --output-format=terse >/dev/null 2>&1 &
    pid=$!
    job0=
    for _ in $(seq 50); do
        for s in /proc/$pid/task/*/status; do
            [ "$(sed -n 's/^Name:[[:space:]]*//p' "$s" 2>/dev/null)" = sb-gtod ] && continue
            [ "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$s" 2>/dev/null)" = 0-$((last - 1)) ] && job0=1
            [ "$last" = 1 ] && [ "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$s" 2>/dev/null)" = 0 ] && job0=1
        done
        [ -n "$job0" ] && break
        sleep 0.1
    done
    wait $pid
    check "gtod_cpu=$last with cpus_allowed=0-$last: the job's thread runs without CPU $last" test -n "$job0"
fi
check_exit "gtod_cpu=1000 (no such CPU): exit 1" 1 io "${JOB[@]}" --gtod_cpu=1000
check_one_line "... one line naming gtod_cpu" "gtod_cpu=1000"
check_exit "gtod_cpu=x: exit 2" 2 io "${JOB[@]}" --gtod_cpu=x
check_one_line "... one line" "CPU number"
finish
