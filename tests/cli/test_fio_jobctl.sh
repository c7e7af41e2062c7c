#!/bin/bash
# CLI tests of fio's job-control options (issue 27; src/io/loop/jobctl.c, flow.c, jobrun.c,
# options_jobctl*.{c,h}), each against fio 3.33 run on the same job file where fio has
# the option: io_size's and number_ios' io_bytes equal fio's, and a size above filesize
# is cut to it as fio's; offset_increment's offsets
# (write_lat_log with log_offset) equal fio's; continue_on_error on a full tmpfs counts
# the same errors as fio (total_err, first_error, error, total_ios, io_bytes); flow keeps
# two jobs' I/Os in their weights' ratio (as fio's); exitall ends the other jobs of the
# group, exit_what=all the later phases too, exit_what=group not another group's;
# rate=R,W paces each direction on its own; dedupe_percentage repeats blocks and
# buffer_compress_percentage makes data compressible, both as fio's do;
# random_distribution=sequence visits the blocks as fio's HOWTO says (fio 3.33 has no
# sequence: storbench alone); fallocate=none leaves a sparse file. Without fio the
# comparisons skip, visibly.
. "$(dirname "$0")/lib.sh"

fio_scratch

# jobs' "NAME READ_IOS READ_BYTES WRITE_IOS WRITE_BYTES" from fio's JSON
ios() { jq -r '.jobs[] | "\(.jobname) \(.read.total_ios) \(.read.io_bytes) \(.write.total_ios) \(.write.io_bytes)"' "$1"; }
sbj() { "$SB" io --output-format=json "$@"; }

# ---- io_size, number_ios: the I/O done, whatever size is ----
cat >ios.fio <<EOF
[global]
ioengine=psync
bs=4k
filename=$F
size=1m
[more]
rw=randread
io_size=3m
[less]
stonewall
rw=read
io_size=256k
loops=2
[count]
stonewall
rw=randwrite
number_ios=37
EOF
sbj ios.fio >sb.json 2>"$T/err"
check "io_size, number_ios run" test $? = 0
check "io_size=3m over size=1m: 3 MiB read" grep -q "^more 768 3145728 " <(ios sb.json)
check "io_size=256k with loops=2: 512 KiB read" grep -q "^less 128 524288 " <(ios sb.json)
check "number_ios=37: 37 writes" grep -q "^count 0 0 37 151552$" <(ios sb.json)
if [ $have_fio = 1 ]; then
    fio --output-format=json ios.fio >fio.json 2>/dev/null
    check "io_size, number_ios: the I/Os and bytes equal fio's" test "$(ios sb.json)" = "$(ios fio.json)"
fi
rm -f "$F"

# size above filesize: cut to the file's size (fio's)
rm -f "$F"
sbj --name=x --filename="$F" --rw=read --filesize=2m --size=8m >sb.json 2>"$T/err"
check "size=8m with filesize=2m reads the file's 2 MiB" test "$(jq '.jobs[0].read.io_bytes' sb.json)" = 2097152
if [ $have_fio = 1 ]; then
    rm -f "$F"
    fio --output-format=json --name=x --filename="$F" --rw=read --size=8m --filesize=2m >fio.json 2>/dev/null
    check "as fio's" test "$(jq '.jobs[0].read.io_bytes' fio.json)" = 2097152
fi
rm -f "$F"

# ---- offset_increment: thread N starts at offset + N * increment ----
cat >oi.fio <<EOF
[global]
ioengine=psync
bs=4k
filename=$F
size=16k
offset=8k
offset_increment=64k
numjobs=3
rw=write
write_lat_log=oi
log_offset=1
[w]
EOF
offsets() { cat oi_lat.*.log | cut -d, -f5 | tr -d ' ' | sort -n | tr '\n' ' '; }
"$SB" io --quiet oi.fio >/dev/null 2>"$T/err"
check "offset_increment runs" test $? = 0
check "offset_increment: each thread's 4 blocks from 8k + N * 64k" \
    test "$(offsets)" = "8192 12288 16384 20480 73728 77824 81920 86016 139264 143360 147456 151552 "
check "the shared file holds the last thread's region" test "$(stat -c %s "$F")" = 155648
if [ $have_fio = 1 ]; then
    want=$(offsets)
    rm -f oi_*.log "$F"
    fio oi.fio >/dev/null 2>&1
    check "offset_increment: the offsets equal fio's" test "$(offsets)" = "$want"
fi
rm -f oi_*.log "$F"

# ---- continue_on_error on a full file system ----
mkdir -p "$T/mnt"
if mount -t tmpfs -o size=4m tmpfs "$T/mnt" 2>/dev/null; then
    trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
    cat >coe.fio <<EOF
[global]
ioengine=psync
bs=64k
filename=$T/mnt/coe
size=8m
rw=write
continue_on_error=write
ignore_error=,ENOSPC
error_dump=0
[w]
EOF
    coe() { jq -r '.jobs[0] | "\(.write.total_ios) \(.write.io_bytes) \(.total_err) \(.first_error) \(.error)"' "$1"; }
    sbj coe.fio >sb.json 2>"$T/err"
    check "continue_on_error=write with ignore_error=,ENOSPC goes on when the disk is full (exit 0)" test $? = 0
    check "64 writes failed with ENOSPC (28), 4 MiB written; counted among the I/Os" \
        test "$(coe sb.json)" = "128 4194304 64 28 28"
    rm -f "$T/mnt/coe"
    "$SB" io coe.fio >out 2>/dev/null
    check "the normal output's errors line, as fio's" \
        grep -q "^     errors    : total=64, first_error=28/<No space left on device>$" out
    rm -f "$T/mnt/coe"
    sed -i 's/^error_dump=0$/error_dump=1/' coe.fio
    "$SB" io coe.fio >/dev/null 2>err
    check "error_dump=1: a line per error" test "$(grep -c 'No space left on device' err)" = 64
    rm -f "$T/mnt/coe"
    sed -i 's/^ignore_error=,ENOSPC$/ignore_error=,EIO/' coe.fio
    check_exit "with ENOSPC not in ignore_error's write list the full disk fails the job (exit 1)" 1 \
        "$SB" io coe.fio
    sed -i 's/^ignore_error=,EIO$/ignore_error=,ENOSPC/' coe.fio
    if [ $have_fio = 1 ]; then
        rm -f "$T/mnt/coe"
        fio --output-format=json coe.fio >fio.json 2>/dev/null
        check "continue_on_error: the counts equal fio's" test "$(coe sb.json)" = "$(coe fio.json)"
    fi
    umount "$T/mnt"
else
    echo "ok # SKIP continue_on_error on a full tmpfs: cannot mount one here (needs root)"
fi

# ---- flow: two jobs' I/Os in the ratio of their weights ----
cat >flow.fio <<EOF
[global]
ioengine=psync
bs=4k
size=4m
filename=$F
time_based
runtime=2
[slow]
rw=write
flow=1
[fast]
rw=randread
flow=8
EOF
ratio() { jq -r '[.jobs[] | .read.total_ios + .write.total_ios] | "\(.[1] * 100 / .[0] | floor)"' "$1"; }
sbj flow.fio >sb.json 2>"$T/err"
r=$(ratio sb.json)
check "flow=1 and flow=8: 5 to 13 times the I/Os ($r %; the jobs start together, as fio's)" test "$r" -ge 500 -a "$r" -le 1300
sed -i 's/^flow=8$/flow=1/' flow.fio
sbj flow.fio >sb.json 2>"$T/err"
r1=$(ratio sb.json)
check "flow=1 and flow=1: about as many ($r1 %)" test "$r1" -ge 75 -a "$r1" -le 133
if [ $have_fio = 1 ]; then
    sed -i 's/^flow=1$/flow=8/; 0,/^flow=8$/s//flow=1/' flow.fio
    fio --output-format=json flow.fio >fio.json 2>/dev/null
    rf=$(ratio fio.json)
    echo "# flow 1:8 ratio: storbench $r %, fio $rf %"
    check "fio's ratio is the same kind (6 to 10 times)" test "$rf" -ge 600 -a "$rf" -le 1000
fi
rm -f "$F"

# ---- exitall, exit_what ----
head -c 1048576 /dev/urandom >"$F"
cat >ea.fio <<EOF
[global]
ioengine=psync
bs=4k
size=1m
filename=$F
exitall
[short]
rw=read
number_ios=10
[long]
rw=randread
time_based
runtime=60
rate_iops=50
[other]
new_group
rw=read
rate_iops=200
[later]
stonewall
rw=read
EOF
sbj ea.fio >sb.json 2>"$T/err"
check "exitall runs" test $? = 0
rt=$(jq -r '.jobs[] | select(.jobname == "long") | .job_runtime' sb.json)
check "exitall: the short job ended the 60 s job of its group ($rt ms)" test "$rt" -lt 30000
check "exit_what=group: the job of another group read its 1 MiB" \
    test "$(jq -r '.jobs[] | select(.jobname == "other") | .read.io_bytes' sb.json)" = 1048576
check "and the later phase ran" test "$(jq -r '.jobs[] | select(.jobname == "later") | .read.io_bytes' sb.json)" = 1048576
sed -i 's/^exitall$/exitall\nexit_what=all/' ea.fio
sbj ea.fio >sb.json 2>"$T/err"
check "exit_what=all: the later phase ends at once (no I/O)" \
    test "$(jq -r '.jobs[] | select(.jobname == "later") | .read.io_bytes' sb.json)" = 0
check "and the other group's job was ended" \
    test "$(jq -r '.jobs[] | select(.jobname == "other") | .read.io_bytes' sb.json)" -lt 1048576
check_exit "exit_what=bogus is refused" 2 "$SB" io --filename="$F" --exit_what=bogus
check_one_line "and named" "exit_what"
rm -f "$F"
# the jobs of a phase start together once all have laid out their files, as fio's (it lays
# out every job's files before it starts any): with exitall, a job whose file is quick to
# lay out no longer runs alone while the other lays out 256 MiB, and so no longer ends that
# one after a fraction of its runtime (limianxing-fio.conf's sixteen jobs and exitall)
cat >gate.fio <<EOF
[global]
ioengine=psync
bs=4k
rw=randread
time_based
runtime=400ms
rate_iops=500
exitall
[small]
filename=$T/gs
size=1m
[big]
filename=$T/gb
size=256m
EOF
gate() { # TOOL: "SMALL_MS BIG_MS", each job's runtime
    rm -f "$T/gs" "$T/gb"
    if [ "$1" = sb ]; then sbj gate.fio; else fio --output-format=json gate.fio; fi 2>/dev/null |
        sed -n '/^{/,$p' >g.json
    jq -r '[.jobs[] | .job_runtime] | "\(.[0]) \(.[1])"' g.json
    rm -f "$T/gs" "$T/gb"
}
read -r s b < <(gate sb)
check "exitall: the job with the large file ran about as long as the other ($b ms, $s ms)" \
    test "$((b * 10))" -ge "$((s * 8))" -a "$s" -gt 0
if [ $have_fio = 1 ]; then
    read -r fs fb < <(gate fio)
    check "... as fio's ($fb ms, $fs ms)" test "$((fb * 10))" -ge "$((fs * 8))" -a "$fs" -gt 0
fi

# ---- rate=R,W: each direction its own pace ----
sbj --filename="$F" --size=1m --rw=randrw --rwmixread=90 --time_based --runtime=2 --rate_iops=,20 \
    >sb.json 2>"$T/err"
w=$(jq '.jobs[0].write.total_ios' sb.json) r=$(jq '.jobs[0].read.total_ios' sb.json)
# one pace for both would hold the reads to 40 as well
check "rate_iops=,20 with 90 % reads: writes paced (at most 45 in 2 s: $w), reads not ($r)" \
    test "$w" -le 45 -a "$r" -gt $((w * 3))
printf '[r]\nfilename=%s\nrate=300,300,300\n' "$F" >rate.fio
check "rate=300,300,300 is read" "$SB" io --parse-only rate.fio
check_exit "rate=1,2,3,4 is refused" 2 "$SB" io --filename="$F" --rate=1,2,3,4
check_one_line "and named" "rate"
rm -f "$F"

# ---- dedupe_percentage, buffer_compress_percentage: the data written ----
# distinct 4 KiB blocks of a file
distinct() { split -b 4096 -a 4 "$1" blk. && md5sum blk.* | cut -c1-32 | sort -u | wc -l; rm -f blk.*; }
data() { # TOOL OPTIONS...: writes a 1 MiB file $F
    rm -f "$F"
    if [ "$1" = fio ]; then shift; fio --name=d --filename="$F" --ioengine=psync --bs=4k --size=1m --rw=write "$@" >/dev/null 2>&1
    else shift; "$SB" io --quiet --name=d --filename="$F" --bs=4k --size=1m --rw=write "$@" >/dev/null 2>&1; fi
}
data sb --dedupe_percentage=50
n=$(distinct "$F")
check "dedupe_percentage=50: about half of 256 blocks distinct ($n)" test "$n" -ge 100 -a "$n" -le 156
data sb --dedupe_percentage=50 --dedupe_mode=working_set --dedupe_working_set_percentage=10
nw=$(distinct "$F")
check "dedupe working_set 10 %: the repeats come from 25 blocks ($nw distinct)" test "$nw" -ge 100 -a "$nw" -le 156
data sb --buffer_compress_percentage=50
c=$(gzip -c "$F" | wc -c)
check "buffer_compress_percentage=50: gzip makes it 45-65 % ($c of 1048576)" \
    test "$c" -ge 471859 -a "$c" -le 681574
data sb --refill_buffers
c0=$(gzip -c "$F" | wc -c)
check "refill_buffers without it: the data does not compress ($c0)" test "$c0" -ge 1000000
if [ $have_fio = 1 ]; then
    data fio --dedupe_percentage=50
    nf=$(distinct "$F")
    data fio --buffer_compress_percentage=50
    cf=$(gzip -c "$F" | wc -c)
    echo "# distinct blocks: storbench $n, fio $nf; gzip of 50 % compressible: storbench $c, fio $cf"
    check "fio's dedupe of the same kind ($nf)" test "$nf" -ge 100 -a "$nf" -le 156
    check "fio's compression of the same kind ($cf)" test "$cf" -ge 471859 -a "$cf" -le 681574
fi
check_exit "dedupe_percentage + working set above 100 is refused (as fio)" 2 "$SB" io --filename="$F" \
    --rw=write --dedupe_percentage=60 --dedupe_mode=working_set --dedupe_working_set_percentage=50
check_one_line "and named" "dedupe"
rm -f "$F"

# ---- random_distribution=sequence (fio's HOWTO; not in fio 3.33) ----
for s in 0 1; do
    "$SB" io --quiet --filename="$F" --ioengine=null --rw=randread --bs=4k --size=48k --io_size=24k \
        --random_distribution=sequence:2,0,1 --random_sequence_stride=$s --write_lat_log=sq --log_offset=1 \
        >/dev/null 2>"$T/err"
    got=$(cut -d, -f5 sq_lat.1.log | tr -d ' ' | awk '{ printf "%d ", $1 / 4096 }')
    want="2 0 1 2 0 1 "; [ $s = 1 ] && want="2 0 1 5 3 4 "
    check "sequence:2,0,1 with random_sequence_stride=$s: blocks $want($got)" test "$got" = "$want"
    rm -f sq_*.log
done
check_exit "a sequence block beyond the region is refused" 2 "$SB" io --filename="$F" --rw=randread \
    --size=8k --random_distribution=sequence:0,5
check_one_line "and named" "sequence"

# ---- fallocate ----
rm -f "$F"
"$SB" io --quiet --name=a --filename="$F" --rw=write --size=8m --number_ios=1 --fallocate=none >/dev/null 2>&1
check "fallocate=none: a sparse file ($(du -k "$F" | cut -f1) KiB on disk)" test "$(du -k "$F" | cut -f1)" -lt 1024
rm -f "$F"
"$SB" io --quiet --name=a --filename="$F" --rw=write --size=8m --number_ios=1 >/dev/null 2>&1
check "fallocate=native (the default): allocated ($(du -k "$F" | cut -f1) KiB)" test "$(du -k "$F" | cut -f1)" -ge 8192
rm -f "$F"
finish
