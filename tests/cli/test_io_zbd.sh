#!/bin/bash
# CLI tests of fio's zonemode=zbd (issue 27, src/io/job/zbd.c) on emulated zones of a regular
# file, seen in fio's latency log with log_offset (psync: completion order is issue
# order): every write at its zone's write pointer, sequential per zone, a write at a
# zone's start only when the zone is full or reset (the count is fio's "N zone resets");
# size=Nz / offset=Nz count zones; max_open_zones bounds the zones being written; reads
# stay below the pointers unless read_beyond_wp; a job file's later phase reads what an
# earlier one wrote; zonecapacity; trims reset zones; the refusals. Where fio is installed the same jobs run
# with it and the zone usage is compared. No zoned block device exists here: the
# BLKREPORTZONE/BLKRESETZONE path is skipped visibly (its conversion has a unit test).
. "$(dirname "$0")/lib.sh"

F="$T/zf"
ZS=262144
cd "$T" || exit 1
run() { rm -f l_*.log; "$SB" io --filename="$F" --quiet --zonemode=zbd --zonesize=256k --bs=64k \
    --write_lat_log=l --log_offset=1 "$@" >"$T/out" 2>"$T/err"; }

# Writes checked against a model of the write pointers: "BAD ZONES RESETS WRITES MAXOPEN
# MIN MAX". A write at a zone's start when the zone holds data is a reset; any other
# write must be at the pointer. A zone is open from a write that leaves it neither empty
# nor full until it is full.
wp_model() {
    awk -F', ' -v zs=$ZS -v bs=65536 -v cap="${2:-$ZS}" '
        $3 != 1 { next }
        { o = $5; z = int(o / zs); s = z * zs; if (!(z in wp)) { wp[z] = s; nz++ }
          if (o == s && wp[z] != s) { resets++; if (z in open) { delete open[z]; nopen-- } }
          else if (o != wp[z]) bad++
          wp[z] = o + bs; n++
          if (wp[z] < s + cap && !(z in open)) { open[z] = 1; nopen++ }
          if (wp[z] >= s + cap && (z in open)) { delete open[z]; nopen-- }
          if (nopen > maxopen) maxopen = nopen
          if (min == "" || o < min) min = o; if (o > max) max = o }
        END { print bad + 0, nz + 0, resets + 0, n + 0, maxopen + 0, min + 0, max + 0 }' "$1"
}
resets_printed() { sed -n 's/.*; \([0-9]*\) zone resets.*/\1/p' "$T/out" | head -1; }
# writes per zone, as "N N N ..." in zone order
per_zone() { awk -F', ' -v zs=$ZS '$3 == 1 { c[int($5 / zs)]++ } END { for (z in c) print z, c[z] }' "$1" |
    sort -n | awk '{ printf "%s ", $2 }'; }

# ---- random writes: at the pointers, each zone filled once (the random map) ----
run --size=2m --rw=randwrite
check "zonemode=zbd randwrite on a file runs" test $? = 0
read -r bad nz resets n _ <<<"$(wp_model l_lat.1.log)"
check "every write at its zone's write pointer ($bad off, $n writes)" test "$bad" = 0 -a "$n" = 32
check "8 zones, each written 4 times ($(per_zone l_lat.1.log))" test "$(per_zone l_lat.1.log)" = "4 4 4 4 4 4 4 4 "
check "no zone reset, and fio's line says 0 ($resets, $(resets_printed))" \
    test "$resets" = 0 -a "$(resets_printed)" = 0

run --size=8z --offset=2z --rw=randwrite
read -r bad nz resets n _ min max <<<"$(wp_model l_lat.1.log)"
check "size=8z offset=2z: 8 zones from zone 2 ($nz zones, $min .. $max)" \
    test "$bad" = 0 -a "$nz" = 8 -a "$min" = $((2 * ZS)) -a "$max" -lt $((10 * ZS))

# ---- open-zone limit; resets as garbage collection ----
run --size=2m --rw=randwrite --max_open_zones=2 --loops=3
read -r bad nz resets n maxopen _ <<<"$(wp_model l_lat.1.log)"
check "max_open_zones=2: at most 2 zones open at once ($maxopen), writes at the pointers ($bad off)" \
    test "$maxopen" -le 2 -a "$maxopen" -ge 1 -a "$bad" = 0 -a "$n" = 96
check "full zones reset before they are written again: $resets, as printed ($(resets_printed))" \
    test "$resets" -gt 0 -a "$resets" = "$(resets_printed)"
run --size=2m --rw=randwrite --runtime=1 --time_based --zone_reset_threshold=0.5 --zone_reset_frequency=0.25
read -r bad nz resets n _ <<<"$(wp_model l_lat.1.log)"
# (the runtime may end between a reset and its write: that reset is printed, not logged)
p=$(resets_printed)
check "zone_reset_threshold/frequency: resets of zones not yet full ($resets of $n writes, printed $p)" \
    test "$bad" = 0 -a "$resets" -gt $((n / 8)) -a "$p" -ge "$resets" -a "$p" -le $((resets + 1))
run --size=2m --rw=randwrite --ioengine=libaio --iodepth=8 --max_open_zones=2
check "libaio, iodepth 8, max_open_zones=2: runs, every block written ($(grep -c . l_lat.1.log))" \
    test $? = 0 -a "$(awk -F', ' '$3 == 1' l_lat.1.log | wc -l)" = 32

# ---- zone capacity: a sequential writer skips to the next zone ----
run --size=1m --rw=write --zonecapacity=192k
read -r bad nz resets n _ <<<"$(wp_model l_lat.1.log 196608)"
beyond=$(awk -F', ' -v zs=$ZS '$5 % zs >= 196608' l_lat.1.log | wc -l)
check "zonecapacity=192k: nothing past the capacity, 12 writes as fio ($beyond past, $n writes)" \
    test "$bad" = 0 -a "$beyond" = 0 -a "$n" = 12

# ---- reads: only what was written, unless read_beyond_wp ----
rm -f "$F"
truncate -s 4m "$F"
run --size=2m --rw=randread
check "randread of empty zones reads nothing, and succeeds" test $? = 0 -a ! -s l_lat.1.log
run --size=2m --rw=randread --read_beyond_wp=1
check "read_beyond_wp=1: the whole size is read ($(wc -l <l_lat.1.log))" test "$(wc -l <l_lat.1.log)" = 32
cat >"$T/wr.fio" <<EOF
[global]
filename=$F
zonemode=zbd
zonesize=256k
bs=64k
size=2m
log_offset=1
[w]
rw=write
size=384k
write_lat_log=w
[r]
stonewall
rw=read
write_lat_log=r
[rr]
stonewall
rw=randread
size=1m
write_lat_log=q
EOF
rm -f w_* r_* q_*
"$SB" io --quiet "$T/wr.fio" >"$T/out" 2>"$T/err"
check "a job file: write, then read and randread the same file" test $? = 0
check "the writer's 384k is rounded to one zone, with a warning (as fio)" \
    grep -q "size 393216 rounded to whole zones: offset 0, size 262144" "$T/err"
check "the sequential reader reads the 4 blocks written, and stops" \
    test "$(cut -d, -f5 r_lat.1.log | tr -d ' ' | tr '\n' ' ')" = "0 65536 131072 196608 "
check "the random reader reads only zone 0 ($(cut -d, -f5 q_lat.1.log | sort -u | tr -d ' ' | tr '\n' ' '))" \
    test -z "$(awk -F', ' '$5 >= 262144' q_lat.1.log)" -a "$(wc -l <q_lat.1.log)" = 16

# ---- trims: each resets its zone (fio's zbd_do_io_u_trim), counted, nothing discarded ----
cat >"$T/tr.fio" <<EOF
[global]
filename=$F
zonemode=zbd
zonesize=256k
size=1m
group_reporting
[w]
rw=write
bs=64k
[t]
wait_for=w
rw=randtrim
bs=256k
EOF
rm -f "$F"
"$SB" io --quiet "$T/tr.fio" >"$T/out" 2>"$T/err"
check "rw=randtrim under zonemode=zbd runs" test $? = 0
check "its 4 trims reset the 4 zones written: the group's zone resets are 4 ($(resets_printed))" \
    test "$(resets_printed)" = 4 -a "$(grep -c 'issued rwts: total=0,16,4,0' "$T/out")" = 1
blocks=$(stat -c %b "$F" 2>/dev/null || echo 0)
check "an emulated zone's reset discards nothing (the file keeps its 1m: $blocks blocks)" \
    test $((blocks * 512)) -ge 1048576
cat >"$T/tr2.fio" <<EOF
[global]
filename=$F
zonemode=zbd
zonesize=256k
size=1m
[w]
rw=write
bs=64k
[t]
stonewall
rw=trim
bs=256k
size=512k
[w2]
stonewall
rw=randwrite
bs=64k
write_lat_log=z
log_offset=1
EOF
rm -f "$F" z_*.log
"$SB" io --quiet "$T/tr2.fio" >"$T/out" 2>"$T/err"
read -r bad nz resets n _ <<<"$(wp_model z_lat.1.log)"
w2=$(grep '; [0-9]* zone resets' "$T/out" | tail -1 | sed 's/.*; \([0-9]*\) zone resets.*/\1/')
check "after rw=trim of zones 0-1, writes start at the zone starts ($bad off of $n), only zones 2-3 reset ($w2)" \
    test "$bad" = 0 -a "$n" = 16 -a "$w2" = 2
rm -f "$F"
timeout 30 "$SB" io --filename="$F" --quiet --zonemode=zbd --zonesize=256k --size=1m --rw=randtrim --bs=256k \
    --time_based --runtime=1 >"$T/out" 2>"$T/err"
rc=$?
check "a time-based randtrim of empty zones waits for data, and ends at its runtime (exit $rc)" test "$rc" = 0
check_exit "a zbd trim job with bs other than the zone size: exit 2" 2 "$SB" io --filename="$F" --zonemode=zbd \
    --zonesize=256k --size=1m --rw=randtrim --bs=64k
check_one_line "named" "is not the zone size"

# ---- refusals: exit 2, one line naming the cause ----
# fio 3.33 takes zonemode=zbd without a zone size on a regular file at --parse-only and
# stops its run before any I/O: "Specifying the zone size is mandatory" (exit 1)
check_exit "zonemode=zbd without zonesize on a file: parse-only takes it" 0 "$SB" io --parse-only --name=z \
    --filename="$F" --zonemode=zbd
check_exit "... its run fails before any I/O: exit 1" 1 "$SB" io --filename="$F" --zonemode=zbd --size=1m
check_one_line "... one line naming the cause" "not a zoned device here: give zonesize"
check_exit "size=4z without a zone size: exit 2" 2 "$SB" io --filename="$F" --size=4z
check_one_line "named" "counts zones"
check_exit "zonecapacity above zonesize: exit 2" 2 "$SB" io --filename="$F" --zonemode=zbd --zonesize=64k \
    --zonecapacity=128k
check_one_line "named" "zonecapacity"
check_exit "zoneskip with zbd: exit 2" 2 "$SB" io --filename="$F" --zonemode=zbd --zonesize=64k --zoneskip=64k
check_one_line "named" "zoneskip"
check_exit "bs above the zone: exit 2" 2 "$SB" io --filename="$F" --zonemode=zbd --zonesize=64k --bs=128k
check_one_line "named" "bs is larger"
check_exit "a write job of less than a zone: exit 2" 2 "$SB" io --filename="$F" --zonemode=zbd --zonesize=1m \
    --size=512k --rw=write
check_one_line "named" "no whole zone"
check_exit "job_max_open_zones without max_open_zones: exit 2" 2 "$SB" io --filename="$F" --zonemode=zbd \
    --zonesize=256k --size=1m --rw=randwrite --job_max_open_zones=1
check_one_line "named" "job_max_open_zones"
check_exit "zone_reset_frequency above 1: exit 2" 2 "$SB" io --filename="$F" --zone_reset_frequency=2
check_one_line "named" "zone_reset_frequency"
check_exit "size=xz: exit 2" 2 "$SB" io --filename="$F" --size=xz
check_one_line "named" "size"

# ---- the same jobs with fio: the same zone usage ----
if command -v fio >/dev/null; then
    fio_run() { rm -f f_*.log; fio --name=z --filename="$F" --zonemode=zbd --zonesize=256k --bs=64k \
        --write_lat_log=f --log_offset=1 "$@" >"$T/fout" 2>&1; }
    rm -f "$F"
    truncate -s 4m "$F" # fio's zones need the file to exist
    fio_run --size=2m --rw=randwrite
    run --size=2m --rw=randwrite
    check "randwrite: fio's writes per zone are storbench's ($(per_zone f_lat.1.log))" \
        test "$(per_zone f_lat.1.log)" = "$(per_zone l_lat.1.log)" -a "$(wp_model f_lat.1.log | cut -d' ' -f1)" = 0
    fio_run --size=2m --rw=randwrite --max_open_zones=2 --loops=3
    read -r fbad _ _ fn fopen _ <<<"$(wp_model f_lat.1.log)"
    run --size=2m --rw=randwrite --max_open_zones=2 --loops=3
    read -r bad _ _ n open _ <<<"$(wp_model l_lat.1.log)"
    check "max_open_zones=2: fio and storbench both keep to it ($fopen, $open open; $fn, $n writes)" \
        test "$fbad" = 0 -a "$bad" = 0 -a "$fopen" = "$open" -a "$fn" = "$n"
    rm -f "$F"
    truncate -s 1m "$F"
    fio "$T/tr.fio" >"$T/fout" 2>&1
    fr=$(sed -n 's/.*; \([0-9]*\) zone resets.*/\1/p' "$T/fout" | head -1)
    "$SB" io --quiet "$T/tr.fio" >"$T/out" 2>"$T/err"
    check "randtrim: fio's zone resets are storbench's ($fr, $(resets_printed))" test -n "$fr" -a "$fr" = "$(resets_printed)"
    fio_run --size=1m --rw=write --zonecapacity=192k --loops=2
    run --size=1m --rw=write --zonecapacity=192k --loops=2
    check "zonecapacity, loops=2: fio's offsets are storbench's" \
        test "$(cut -d, -f5 f_lat.1.log | tr '\n' ' ')" = "$(cut -d, -f5 l_lat.1.log | tr '\n' ' ')"
else
    echo "ok # SKIP fio not installed: no comparison with fio's zones"
fi

zoned=$(grep -lE 'host-(managed|aware)' /sys/block/*/queue/zoned 2>/dev/null | head -1)
if [ -z "$zoned" ]; then
    echo "ok # SKIP no zoned block device on this machine: BLKREPORTZONE/BLKRESETZONE not run (tests/unit/test_zbd.c checks the zone report's conversion)"
else
    echo "ok # SKIP zoned device ${zoned%/queue/zoned} present, but tests never write to a real device"
fi
finish
