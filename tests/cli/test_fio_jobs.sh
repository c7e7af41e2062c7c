#!/bin/bash
# CLI tests of fio job files (issue 27, src/io/options/jobfile.c): fio's own examples
# (tests/data/fio-examples/) are tested in test_fio_examples.sh; here the reader's rules: [global] inheritance,
# include, ${VAR} and $ncpus expansion, comments, kb_base, stonewall phases, --section,
# --name, refusals with FILE:LINE and exit 2 before anything runs.
. "$(dirname "$0")/lib.sh"

D="$T/target"
mkdir -p "$D"

# fio's examples themselves (each runs or is refused with the option named): test_fio_examples.sh

# ---- the reader's rules ----
cat >"$T/inc.fio" <<'J'
iodepth=3 ; from the include
J
cat >"$T/a.fio" <<'J'
; a comment
# another
[global]
rw=randread
size=${SB_TEST_SIZE}
ioengine=libaio
include inc.fio

[first]
bs=8k
numjobs=$ncpus

[second]
stonewall
rw=write
size=16MiB
fsync=2

[third]
new_group
kb_base=1000
size=1MiB
bs=4k-16k
J
SB_TEST_SIZE=2m "$SB" io --directory="$D" --parse-only "$T/a.fio" >"$T/out" 2>"$T/err"
check "a job file parses" test $? = 0
check "[global] applies to each job; a job's own line wins" \
    grep -q "^first: rw=randread, bs=8192, size=2097152, ioengine=libaio, iodepth=3, numjobs=$(nproc) (phase 0, group 0)" "$T/out"
check "fio's kb_base=1024: 16MiB is 16,000,000 bytes; stonewall starts a phase and a group" \
    grep -q "^second: rw=write, bs=4096, size=16000000, ioengine=libaio, iodepth=3, numjobs=1 (phase 1, group 1)" "$T/out"
check "kb_base=1000: 1MiB is 1,048,576; new_group without a barrier" \
    grep -q "^third: .*size=1048576,.*(phase 1, group 2)" "$T/out"
SB_TEST_SIZE=2m "$SB" io --directory="$D" --parse-only --section second "$T/a.fio" >"$T/out" 2>&1
check "--section runs only that job" test "$(grep -c '^[a-z]*: rw=' "$T/out")" = 1 -a -n "$(grep '^second:' "$T/out")"
"$SB" io --directory="$D" --parse-only --rw=write --name=x --bs=8k --name=y >"$T/out" 2>"$T/err"
check "--name starts a job; options before it apply to every job" \
    grep -q "^x: rw=write, bs=8192" "$T/out"
check "options after --name are that job's" grep -q "^y: rw=write, bs=4096" "$T/out"
check_exit "an option outside of a [section] exits 2, as fio" 2 "$SB" io --directory="$D" "$T/inc.fio"
check "named with its line" grep -q "inc.fio:1: option 'iodepth=3' outside of a \[section\]" "$T/err"

printf '[j]\nrw=read\n\nfrobnicate=3\n' >"$T/bad.fio"
check_exit "an unknown option exits 2" 2 "$SB" io --directory="$D" "$T/bad.fio"
check "the refusal names the file's line and the option" grep -qx "storbench: io: $T/bad.fio:4: unknown option 'frobnicate'" "$T/err"
printf '[j]\nbssplit=4k/60:64k/60\n' >"$T/bad2.fio"
check_exit "a bad split exits 2" 2 "$SB" io --directory="$D" "$T/bad2.fio"
check "its line says why" grep -q "bad2.fio:2: bssplit: .*100" "$T/err"
printf '[j]\nfilename=%s/a:%s/b\nsize=64k\nrw=write\n' "$D" "$D" >"$T/two.fio"
check_exit "filename=a:b in a job file runs" 0 "$SB" io --quiet "$T/two.fio"
check "... as two files of size/2 (fio's)" test "$(stat -c %s "$D/a" "$D/b" 2>/dev/null | tr '\n' ' ')" = "32768 32768 "
printf '[j]\nfilename=%s/c\\:d\nsize=64k\nrw=write\n' "$D" >"$T/esc.fio"
"$SB" io --quiet "$T/esc.fio" >"$T/out" 2>"$T/err"
check "filename=c\\:d is one file named c:d" test -f "$D/c:d"
rm -f "$D/c:d"
printf '[a]\nrw=write\nsize=64k\n[b]\nwait_for=nosuch\n' >"$T/wf.fio"
# as fio's: --parse-only takes it, the run fails before any job starts (exit 1)
check_exit "wait_for naming no job: --parse-only takes it" 0 "$SB" io --parse-only --directory="$D" "$T/wf.fio"
check_exit "wait_for naming no job: the run exits 1" 1 "$SB" io --directory="$D" "$T/wf.fio"
check "and says so" grep -q "wait_for=nosuch names no job" "$T/err"

# Two jobs at once, then a third after the barrier: each reported by its name.
printf '[global]\nsize=128k\nbs=4k\n[w1]\nrw=write\n[w2]\nrw=randwrite\nbssplit=4k/50:8k/50\n[r]\nstonewall\nrw=read\nnumjobs=2\n' >"$T/run.fio"
"$SB" io --directory="$D" --quiet "$T/run.fio" >"$T/out" 2>"$T/err"
check "a job file with a barrier runs" test $? = 0
check "each job is reported by name and group" \
    test "$(grep -cE '^(w1|w2): \(groupid=0, jobs=1\)|^r: \(groupid=1, jobs=1\)' "$T/out")" = 4
check "numjobs without group_reporting: each thread on its own, as fio" \
    test "$(grep -c '^r: (groupid=1, jobs=1): err= 0' "$T/out")" = 2
printf '[global]\nsize=128k\ngroup_reporting\n[r]\nrw=read\nnumjobs=2\n' >"$T/gr.fio"
"$SB" io --directory="$D" --quiet "$T/gr.fio" >"$T/out" 2>&1
check "group_reporting: numjobs summed" test "$(grep -c '^r: (groupid=0, jobs=[0-9]*)' "$T/out")" = 1 \
    -a -n "$(grep '^r: (groupid=0, jobs=2)' "$T/out")"

# fio's engines: pvsync really is preadv/pwritev, null moves nothing.
if command -v strace >/dev/null; then
    strace -f -e trace=preadv,pwritev,pread64 -o "$T/st" "$SB" io --directory="$D" --quiet --size=64k \
        --rw=write --ioengine=pvsync >/dev/null 2>&1
    check "pvsync writes with pwritev" grep -q pwritev "$T/st"
    strace -f -e trace=fsync,fdatasync -o "$T/st" "$SB" io --directory="$D" --quiet --size=64k \
        --rw=write --fsync=4 >/dev/null 2>&1
    check "fsync=N calls fsync, as fio" test -n "$(grep 'fsync(' "$T/st")" -a -z "$(grep fdatasync "$T/st")"
else
    echo "ok # SKIP strace not installed: pvsync and fsync system calls not checked"
fi
"$SB" io --directory="$D" --quiet --size=1m --ioengine=null --rw=randwrite >"$T/out" 2>&1
check "the null engine runs" grep -q "write: IOPS=" "$T/out"
finish
