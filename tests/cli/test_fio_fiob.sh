#!/bin/bash
# CLI tests of fio's io_submit_mode, random_generator, numa_*, sprandom, steadystate=lat,
# cmdprio and bssplit=READS,WRITES options (issue 27), with fio 3.33 beside storbench
# where fio has the option: what each does, seen in fio's log files, the JSON, and
# /proc of the running job.
. "$(dirname "$0")/lib.sh"

D="$T/target"
mkdir -p "$D"
cd "$T" || exit 1
FIO=$(command -v fio || true)
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# ---- random_generator=lfsr: every block once, even without the random map ----
"$SB" io --directory="$D" --quiet --size=1m --bs=4k --rw=randread --random_generator=lfsr \
    --norandommap --write_lat_log=l --log_offset=1 >/dev/null 2>"$T/err"
check "random_generator=lfsr runs" test $? = 0
"$SB" io --directory="$D" --quiet --size=1m --bs=4k --rw=randread --norandommap \
    --write_lat_log=t --log_offset=1 >/dev/null 2>&1
tau=$(cut -d, -f5 t_lat.1.log | sort -u | wc -l)
check "lfsr + norandommap: 256 I/Os, 256 distinct blocks (tausworthe + norandommap: $tau)" \
    test -s l_lat.1.log -a "$(wc -l <l_lat.1.log)" = 256 -a "$(cut -d, -f5 l_lat.1.log | sort -u | wc -l)" = 256 \
    -a "$tau" -lt 256
if [ -n "$FIO" ]; then
    "$FIO" --name=f --filename="$D/fio.f" --size=1m --bs=4k --rw=randread --random_generator=lfsr \
        --norandommap --write_iolog="$T/fio.iolog" >/dev/null 2>&1
    n=$(awk '$3 == "read" { print $4 }' "$T/fio.iolog" | sort -u | wc -l) # version 3: time first
    check "fio 3.33's lfsr and storbench's: both 256 distinct blocks (fio: $n)" \
        test "$n" = 256 -a "$(cut -d, -f5 l_lat.1.log 2>/dev/null | sort -u | wc -l)" = 256
else
    echo "ok # SKIP fio not installed (the lfsr comparison)"
fi

# ---- sprandom (fio 3.41): the physical capacity written, every block at least once ----
"$SB" io --directory="$D" --quiet --size=4m --bs=4k --rw=randwrite --sprandom=1 --spr_op=0.15 \
    --spr_num_regions=10 --write_lat_log=s --log_offset=1 >/dev/null 2>"$T/err"
check "sprandom runs" test $? = 0
w=$(wc -l <s_lat.1.log)
check "sprandom: about 1024 x 1.15 writes ($w)" test "$w" -ge 1150 -a "$w" -le 1190
check "sprandom: all 1024 blocks written" test "$(cut -d, -f5 s_lat.1.log | sort -u | wc -l)" = 1024
check_exit "sprandom with rw=randread is refused" 2 "$SB" io --directory="$D" --sprandom=1 --rw=randread
check_one_line "named, with the reason" "sprandom needs rw=randwrite"
printf '[j]\nrw=randwrite\nbs=${FIO_BS}\nsize=1m\nsprandom=1\n' >"$T/spr.fio"
env -u FIO_BS "$SB" io --directory="$D" "$T/spr.fio" >"$T/out" 2>"$T/err"
rc1=$?
env FIO_BS=4096 "$SB" io --directory="$D" --quiet "$T/spr.fio" >"$T/out2" 2>"$T/err2"
rc2=$?
check "\${FIO_BS}: unset, refused at its bs= line as fio (exit $rc1); FIO_BS=4096: runs (exit $rc2)" \
    test $rc1 = 2 -a $rc2 = 0 -a "$(grep -c 'spr.fio:3: bs' "$T/err")" = 1

# ---- steadystate=lat with ss_interval ----
"$SB" io --directory="$D" --ioengine=null --size=1m --rw=randread --time_based --runtime=30 \
    --steadystate=lat:1000000000 --ss_dur=4 --ss_interval=2 --output-format=json >"$T/ss.json" 2>"$T/err"
check "steadystate=lat runs" test $? = 0
check "lat: a 1 s limit on the latency's deviation is met when the window of two 2 s samples fills" \
    test "$(jq_ "$T/ss.json" "d['jobs'][0]['storbench']['steadystate']['attained'], d['jobs'][0]['storbench']['steadystate']['criterion_unit']" 2>/dev/null)" = "True ns"
check_exit "steadystate=latency is refused" 2 "$SB" io --directory="$D" --steadystate=latency:2%
check_one_line "named, lat and lat_slope among the criteria" "lat, lat_slope"

# ---- io_submit_mode=offload keeps the rate ----
"$SB" io --directory="$D" --size=8m --rw=randread --ioengine=libaio --iodepth=4 --rate_iops=100 \
    --time_based --runtime=2 --io_submit_mode=offload --output-format=json >"$T/off.json" 2>"$T/err"
check "io_submit_mode=offload runs" test $? = 0
n=$(jq_ "$T/off.json" "d['jobs'][0]['read']['total_ios']" 2>/dev/null)
check "offload: rate_iops=100 for 2 s is 150 .. 210 I/Os ($n)" test "${n:-0}" -ge 150 -a "${n:-0}" -le 210
"$SB" io --directory="$D" --size=1m --rw=randwrite --ioengine=psync --iodepth=4 \
    --io_submit_mode=offload --output-format=json >"$T/off2.json" 2>"$T/err"
check "offload with psync at iodepth 4: every block written, no 'no effect' warning" \
    test "$(jq_ "$T/off2.json" "d['jobs'][0]['write']['total_ios']")" = 256 -a ! -s "$T/err"
check_exit "offload with verify is refused" 2 "$SB" io --directory="$D" --io_submit_mode=offload --verify=crc32c --rw=write
check_one_line "named" "io_submit_mode=offload: not with verify"

# ---- cmdprio: 20 % of the I/Os with class 1, the rest the job's class 3 ----
cp_job="--size=8m --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --direct=1 --prioclass=3 --cmdprio_percentage=20 --cmdprio_class=1"
# shellcheck disable=SC2086
"$SB" io --directory="$D" $cp_job --write_lat_log=p --log_prio=1 --output-format=json >"$T/p.json" 2>"$T/err"
rc=$?
if [ $rc != 0 ] && grep -q "direct\|O_DIRECT\|EINVAL" "$T/err"; then
    # shellcheck disable=SC2086
    "$SB" io --directory="$D" ${cp_job/--direct=1/} --write_lat_log=p --log_prio=1 --output-format=json >"$T/p.json" 2>"$T/err"
    rc=$?
fi
check "cmdprio_percentage runs" test $rc = 0
share=$(jq_ "$T/p.json" "' '.join('%d/%d:%d' % (p['prioclass'], p['prio'], p['clat_ns']['N']) for p in d['jobs'][0]['read']['prios'])" 2>/dev/null)
hi=$(echo "$share" | tr ' ' '\n' | awk -F: '$1 == "1/0" { print $2 }')
lo=$(echo "$share" | tr ' ' '\n' | awk -F: '$1 == "3/0" { print $2 }')
check "json prios: 1/0 and 3/0, 1/0 about 20 % of 2048 ($share)" \
    test -n "$hi" -a -n "$lo" -a "$((${hi:-0} + ${lo:-0}))" = 2048 -a "${hi:-0}" -ge 300 -a "${hi:-0}" -le 520
check "log_prio: the prio column is the ioprio value, 0x2000 or 0x6000, as fio's" \
    test -s p_lat.1.log -a -z "$(awk -F', ' '$5 != "0x2000" && $5 != "0x6000"' p_lat.1.log)" \
    -a "$(grep -c 0x2000 p_lat.1.log)" = "$hi"
if [ -n "$FIO" ]; then
    # shellcheck disable=SC2086
    "$FIO" --name=f --filename="$D/fio.p" $cp_job --output-format=json --output="$T/fp.json" >/dev/null 2>&1
    fshare=$(jq_ "$T/fp.json" "' '.join(sorted('%d/%d' % (p['prioclass'], p['prio']) for p in d['jobs'][0]['read']['prios']))" 2>/dev/null)
    sshare=$(jq_ "$T/p.json" "' '.join(sorted('%d/%d' % (p['prioclass'], p['prio']) for p in d['jobs'][0]['read']['prios']))" 2>/dev/null)
    check "fio 3.33 reports the same priorities ($fshare / $sshare)" test -n "$fshare" -a "$fshare" = "$sshare"
else
    echo "ok # SKIP fio not installed (the cmdprio comparison)"
fi
check_exit "cmdprio on psync is refused" 2 "$SB" io --directory="$D" --cmdprio_percentage=20
check_one_line "named" "cmdprio: only the libaio and io_uring engines"

# ---- bssplit=READS,WRITES ----
"$SB" io --directory="$D" --quiet --size=4m --rw=randrw --bssplit=4k/100,64k/100 --write_lat_log=b >/dev/null 2>&1
check "bssplit=4k/100,64k/100: reads 4k, writes 64k" \
    test -z "$(awk -F', ' '($3 == 0 && $4 != 4096) || ($3 == 1 && $4 != 65536)' b_lat.1.log)" -a -s b_lat.1.log

# ---- numa ----
check_exit "numa_cpu_nodes=63 is refused" 2 "$SB" io --directory="$D" --numa_cpu_nodes=63
check_one_line "named" "NUMA node 63 does not exist"
cpus=$(cat /sys/devices/system/node/node0/cpulist 2>/dev/null)
if [ -n "$cpus" ] && [ "$cpus" != 0 ] && command -v taskset >/dev/null; then
    taskset -c 0 "$SB_BIN" io --directory="$D" --size=4m --rw=randread --time_based --runtime=3 \
        --numa_cpu_nodes=0 --numa_mem_policy=bind:0 --quiet >/dev/null 2>&1 &
    pid=$!
    sleep 1.5
    aff=$(grep -h Cpus_allowed_list /proc/$pid/task/*/status 2>/dev/null | awk '{ print $2 }' | sort -u | tr '\n' ' ')
    maps=$(grep -c 'bind:0' /proc/$pid/numa_maps 2>/dev/null)
    wait $pid
    check "numa_cpu_nodes=0 under taskset -c 0: a job thread on node 0's CPUs $cpus ($aff)" \
        test "$(echo "$aff" | tr ' ' '\n' | grep -cx "$cpus")" -ge 1
    check "numa_mem_policy=bind:0: mappings bound to node 0 in numa_maps (${maps:-0})" test "${maps:-0}" -ge 1
else
    echo "ok # SKIP node 0 has one CPU or no taskset: the affinity cannot be told from the default"
fi
finish
