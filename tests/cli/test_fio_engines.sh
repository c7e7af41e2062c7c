#!/bin/bash
# CLI tests of the engines that are one file each in src/io/engines/ beyond the data movers
# of test_io.sh — vsync, splice, falloc, ftruncate, the file and directory op engines,
# e4defrag and sg — and of the engine options (fio --enghelp) they and the others take.
# Each engine runs the same job as fio 3.33 on a file of its own, and the I/O counts per
# direction and what the job leaves on disk (size, allocated blocks, files) must be fio's;
# strace shows the system call each one is (splice/vmsplice, readv, fallocate, ftruncate)
# and what an option changes (RWF_ flags, io_uring_setup flags). Without fio, jq or strace
# a comparison skips, visibly.
. "$(dirname "$0")/lib.sh"

have_fio=0 have_strace=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1
command -v strace >/dev/null && have_strace=1
[ $have_fio = 1 ] || echo "# skip: no fio or jq, the comparisons with fio skip"
[ $have_strace = 1 ] || echo "# skip: no strace, the system call checks skip"
cd "$T" || exit 1

# counts FILE: "reads writes trims" of the first job of a JSON report
counts() { jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios) \(.trim.total_ios)"' "$1" 2>/dev/null; }
# ondisk FILE: its size and allocated 512-byte blocks
ondisk() { stat -c '%s %b' "$1" 2>/dev/null; }
# same_as_fio NAME PREP ARGS...: runs `fio ARGS --filename=fio.dat` and `storbench io ARGS
# --filename=sb.dat`, each after PREP (a shell snippet run with $F the file), and checks
# that the counts and the file left are the same. $SB_ONLY: more arguments for storbench.
same_as_fio() {
    local n=$1 prep=$2; shift 2
    rm -f fio.dat sb.dat
    F=fio.dat sh -c "$prep"; F=sb.dat sh -c "$prep"
    # shellcheck disable=SC2086
    "$SB_BIN" io --name=t "$@" ${SB_ONLY:-} --filename=sb.dat --output-format=json >sb.json 2>sb.err
    local rc=$?
    if [ $rc != 0 ]; then not_ok "$n: storbench runs (exit $rc: $(head -c 300 sb.err))"; return; fi
    if [ $have_fio = 0 ]; then ok "$n: storbench runs (# skip: no fio to compare with)"; return; fi
    fio --name=t "$@" --filename=fio.dat --output-format=json >fio.json 2>fio.err
    local f s
    f="$(counts fio.json) / $(ondisk fio.dat)"; s="$(counts sb.json) / $(ondisk sb.dat)"
    if [ "$f" = "$s" ]; then ok "$n: as fio ($s)"; else not_ok "$n: fio $f, storbench $s"; fi
}
# traced NAME PATTERN ARGS...: storbench io ARGS under strace -f; PATTERN is in the trace
traced() {
    local n=$1 pat=$2; shift 2
    if [ $have_strace = 0 ]; then ok "$n (# skip: no strace)"; return; fi
    rm -f tr.dat
    strace -f -o trace.txt "$SB_BIN" io --name=t "$@" --filename=tr.dat >/dev/null 2>tr.err
    if grep -qE -- "$pat" trace.txt; then ok "$n"; else not_ok "$n (no /$pat/ in the trace: $(head -c 200 tr.err))"; fi
}

# ---- vsync: lseek + readv/writev ----
same_as_fio "vsync write" "" --ioengine=vsync --rw=write --bs=4k --size=64k
same_as_fio "vsync randread" "" --ioengine=vsync --rw=randread --bs=4k --size=64k
traced "vsync reads with readv" 'readv\(.*\) += 4096' --ioengine=vsync --rw=read --bs=4k --size=64k

# ---- splice: through a pipe ----
same_as_fio "splice write" "" --ioengine=splice --rw=write --bs=128k --size=1m
same_as_fio "splice randread" "" --ioengine=splice --rw=randread --bs=4k --size=256k
traced "splice writes with vmsplice and splice" 'splice\(.*, 4096, 0\) += 4096' \
    --ioengine=splice --rw=write --bs=4k --size=64k
traced "splice reads with splice and vmsplice" 'vmsplice\(' --ioengine=splice --rw=read --bs=4k --size=64k
"$SB_BIN" io --name=t --ioengine=splice --rw=write --bs=128k --size=1m --filename=sp.dat >/dev/null 2>&1
"$SB_BIN" io --name=t --ioengine=psync --rw=write --bs=128k --size=1m --filename=ps.dat >/dev/null 2>&1
check "splice writes the same data as psync (same seed)" cmp -s sp.dat ps.dat

# ---- falloc: write allocates, read allocates keeping the size, trim punches ----
same_as_fio "falloc write" "" --ioengine=falloc --rw=write --bs=4k --size=64k
same_as_fio "falloc read of a sparse file allocates it" 'truncate -s 64k $F' \
    --ioengine=falloc --rw=read --bs=4k --size=64k
SB_ONLY=--destroy-data-on=sb.dat same_as_fio "falloc trim punches holes" 'head -c 65536 /dev/urandom >$F' \
    --ioengine=falloc --rw=trim --bs=4k --size=64k
traced "falloc writes with fallocate mode 0" 'fallocate\([0-9]+, 0, 4096, 4096\) += 0' \
    --ioengine=falloc --rw=write --bs=4k --size=64k
check_exit "falloc with --readonly is refused" 2 "$SB_BIN" io --name=t --ioengine=falloc --rw=read \
    --size=64k --filename=sb.dat --readonly
check_one_line "... in one line naming falloc" "ioengine=falloc"

# ---- ftruncate: each write truncates to its offset ----
same_as_fio "ftruncate write" "" --ioengine=ftruncate --rw=write --bs=4k --size=64k
traced "ftruncate writes with ftruncate" 'ftruncate\([0-9]+, 61440\) += 0' \
    --ioengine=ftruncate --rw=write --bs=4k --size=64k
check_exit "ftruncate read is refused" 2 "$SB_BIN" io --name=t --ioengine=ftruncate --rw=read \
    --size=64k --filename=sb.dat
check_one_line "... in one line" "only writes"

finish
