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
# ondisk FILE: its size and how much of it is allocated: "all" (a file system may add an
# extent index block when another writer split the extents, so not an exact count), "none",
# or the allocated 512-byte blocks
ondisk() {
    local s b
    read -r s b < <(stat -c '%s %b' "$1" 2>/dev/null) || return
    if [ "$b" = 0 ]; then echo "$s none"
    elif [ $((b * 512)) -ge "$s" ]; then echo "$s all"
    else echo "$s $b"; fi
}
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
# strace_ff COMMAND...: the trace of every thread in trace.txt, each thread's calls whole (one
# file per thread: with -f alone, a call another thread interrupts is split in two lines)
strace_ff() {
    rm -f trace.txt tr.t.*
    strace -ff -o tr.t "$@"
    local rc=$?
    cat tr.t.* >trace.txt 2>/dev/null
    rm -f tr.t.*
    return $rc
}
# traced NAME PATTERN ARGS...: storbench io ARGS under strace -f; PATTERN is in the trace
traced() {
    local n=$1 pat=$2; shift 2
    if [ $have_strace = 0 ]; then ok "$n (# skip: no strace)"; return; fi
    rm -f tr.dat
    strace_ff "$SB_BIN" io --name=t "$@" --filename=tr.dat >/dev/null 2>tr.err
    if grep -qE -- "$pat" trace.txt; then ok "$n"; else not_ok "$n (no /$pat/ in the trace: $(head -c 200 tr.err))"; fi
}

# ---- vsync: lseek + readv/writev ----
same_as_fio "vsync write" "" --ioengine=vsync --rw=write --bs=4k --size=64k
same_as_fio "vsync randread" "" --ioengine=vsync --rw=randread --bs=4k --size=64k
traced "vsync reads with readv" 'readv\(.*\) += 4096' --ioengine=vsync --rw=read --bs=4k --size=64k
if [ $have_strace = 1 ] && [ $have_fio = 1 ]; then
    # fio caps a synchronous engine's queue depth at 1: one readv of one iovec per I/O, even at 4
    strace_ff "$SB_BIN" io --name=t --ioengine=vsync --rw=read --bs=4k --size=64k --iodepth=4 --filename=sb.dat \
        >/dev/null 2>&1
    s=$(grep -c 'readv(.*\], 1)' trace.txt)
    strace_ff fio --name=t --ioengine=vsync --rw=read --bs=4k --size=64k --iodepth=4 --filename=fio.dat >/dev/null 2>&1
    f=$(grep -c 'readv(.*\], 1)' trace.txt)
    check "vsync at iodepth=4: one readv of one iovec per I/O, as fio ($s; fio $f)" test "$s" = 16 -a "$f" = 16
fi

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
check_one_line "... in one line naming falloc" "ioengine=falloc changes"

# ---- ftruncate: each write truncates to its offset ----
same_as_fio "ftruncate write" "" --ioengine=ftruncate --rw=write --bs=4k --size=64k
traced "ftruncate writes with ftruncate" 'ftruncate\([0-9]+, 61440\) += 0' \
    --ioengine=ftruncate --rw=write --bs=4k --size=64k
check_exit "ftruncate read is refused" 2 "$SB_BIN" io --name=t --ioengine=ftruncate --rw=read \
    --size=64k --filename=sb.dat
check_one_line "... in one line" "only writes"

# ---- engine options (fio --enghelp): each changes what runs ----
# traced_e NAME PATTERN ARGS...: as traced, on the cached file opt.dat (written first)
"$SB_BIN" io --name=w --filename=opt.dat --rw=write --size=256k --end_fsync=1 >/dev/null 2>&1
traced_e() {
    local n=$1 pat=$2; shift 2
    if [ $have_strace = 0 ]; then ok "$n (# skip: no strace)"; return; fi
    strace_ff "$SB_BIN" io --name=t --filename=opt.dat --size=256k --invalidate=0 "$@" \
        >/dev/null 2>tr.err
    local rc=$?
    if [ $rc = 0 ] && grep -qE -- "$pat" trace.txt; then ok "$n"; else
        not_ok "$n (exit $rc, /$pat/ in the trace: $(grep -cE -- "$pat" trace.txt); $(head -c 200 tr.err))"; fi
}
# traced_none NAME PATTERN ARGS...: as traced_e, the run succeeds and PATTERN is nowhere in its trace
traced_none() {
    local n=$1 pat=$2; shift 2
    if [ $have_strace = 0 ]; then ok "$n (# skip: no strace)"; return; fi
    strace_ff "$SB_BIN" io --name=t --filename=opt.dat --size=256k --invalidate=0 "$@" \
        >/dev/null 2>tr.err
    local rc=$? c
    c=$(grep -cE -- "$pat" trace.txt)
    if [ $rc = 0 ] && [ "$c" = 0 ]; then ok "$n"; else not_ok "$n (exit $rc, /$pat/ $c times in the trace)"; fi
}
traced_e "io_uring sqthread_poll_cpu=1: SQPOLL|SQ_AFF on CPU 1" \
    'io_uring_setup\(.*flags=IORING_SETUP_SQPOLL\|IORING_SETUP_SQ_AFF, sq_thread_cpu=0x1' \
    --ioengine=io_uring --rw=read --sqthread_poll=1 --sqthread_poll_cpu=1
# mmap advises its mapping by the job's pattern, as fio's engine (a random job's fault reads one page)
traced_e "mmap randread: the mapping advised MADV_RANDOM" 'madvise\(.*MADV_RANDOM\) = 0' --ioengine=mmap --rw=randread
traced_e "mmap read: the mapping advised MADV_SEQUENTIAL" 'madvise\(.*MADV_SEQUENTIAL\) = 0' --ioengine=mmap --rw=read
traced_none "mmap with fadvise_hint=0: the mapping not advised" 'madvise\(.*MADV_(RANDOM|SEQUENTIAL)' \
    --ioengine=mmap --rw=randread --fadvise_hint=0
# without a CPU placement of its own the ring keeps its io-wq worker off the submitter's CPU
if [ "$(nproc)" -ge 2 ]; then
    traced_e "io_uring without cpus_allowed: io-wq kept off the submitter's CPU (IOWQ_AFF)" \
        'io_uring_register\(.*IORING_REGISTER_IOWQ_AFF.* = 0' --ioengine=io_uring --rw=read
    traced_none "io_uring with cpus_allowed=0: the kernel's io-wq placement (no IOWQ_AFF)" \
        'IORING_REGISTER_IOWQ_AFF' --ioengine=io_uring --rw=read --cpus_allowed=0
else ok "io-wq placement (# skip: one CPU)"; fi
check_exit "sqthread_poll_cpu without sqthread_poll is refused" 2 "$SB_BIN" io --name=t \
    --filename=opt.dat --size=256k --ioengine=io_uring --sqthread_poll_cpu=1
check_one_line "... in one line naming sqthread_poll" "needs sqthread_poll"
traced_e "pvsync2 uncached=1: RWF_DONTCACHE (0x80) on each call" 'preadv2\(.*, 0x80( /\*.*\*/)?\) += 4096' \
    --ioengine=pvsync2 --rw=read --uncached=1
traced_e "pvsync2 nowait=1: RWF_NOWAIT" 'preadv2\(.*RWF_NOWAIT.*\) += 4096' --ioengine=pvsync2 --rw=read --nowait=1
if [ $have_strace = 1 ]; then
    strace_ff "$SB_BIN" io --name=t --filename=opt.dat --size=256k --invalidate=0 \
        --ioengine=pvsync2 --rw=read --hipri=1 --hipri_percentage=50 >/dev/null 2>&1
    hp=$(grep -c 'preadv2(.*RWF_HIPRI' trace.txt) all=$(grep -c 'preadv2([0-9]*, \[{iov_base="' trace.txt)
    check "pvsync2 hipri_percentage=50: RWF_HIPRI on some calls, not all ($hp of $all)" \
        test "$all" = 64 -a "$hp" -gt 0 -a "$hp" -lt 64
else ok "pvsync2 hipri_percentage (# skip: no strace)"; fi
if command -v fincore >/dev/null; then
    for e in pvsync2 io_uring; do
        "$SB_BIN" io --name=t --filename=opt.dat --size=256k --ioengine=$e --rw=read --uncached=1 >/dev/null 2>&1
        c1=$(fincore -n -o PAGES opt.dat)
        "$SB_BIN" io --name=t --filename=opt.dat --size=256k --ioengine=$e --rw=read >/dev/null 2>&1
        c0=$(fincore -n -o PAGES opt.dat)
        check "$e uncached=1 leaves the file out of the page cache ($c1 pages; $c0 without)" \
            test "${c1// /}" = 0 -a "${c0// /}" = 64
    done
else ok "uncached and the page cache (# skip: no fincore)"; fi
check_exit "uncached with direct=1 is refused" 2 "$SB_BIN" io --name=t --filename=opt.dat --size=256k \
    --ioengine=pvsync2 --uncached=1 --direct=1
check_one_line "... in one line naming buffered I/O" "buffered"
traced_e "libaio nowait=1: RWF_NOWAIT in each iocb" 'io_submit\(.*aio_rw_flags=RWF_NOWAIT' \
    --ioengine=libaio --rw=read --nowait=1
if [ $have_strace = 1 ]; then
    for r in 0 1; do
        strace_ff "$SB_BIN" io --name=t --filename=opt.dat --size=256k --invalidate=0 \
            --ioengine=libaio --rw=read --userspace_reap=$r >/dev/null 2>&1
        eval "ge$r=$(grep -c 'io_getevents(' trace.txt)"
    done
    check "libaio userspace_reap=1 reaps from the ring ($ge1 io_getevents), =0 through io_getevents ($ge0)" \
        test "$ge1" -lt 4 -a "$ge0" -ge 64
else ok "libaio userspace_reap (# skip: no strace)"; fi
traced_e "mmap thp=1: MADV_HUGEPAGE on the mapping" 'madvise\(.*MADV_HUGEPAGE\) += 0' --ioengine=mmap --rw=read --thp=1
if "$SB_BIN" io --name=t --filename=opt.dat --size=64k --ioengine=io_uring --rw=read >/dev/null 2>&1; then
    # force_async sends I/Os to io-wq: its worker threads (iou-wrk-PID) appear beside the job's
    for fa in 0 1; do
        "$SB_BIN" io --name=t --filename=opt.dat --size=256k --ioengine=io_uring --iodepth=4 --rw=randread \
            --invalidate=0 --force_async=$fa --time_based --runtime=2 >/dev/null 2>&1 &
        p=$!
        n=0
        for _ in $(seq 20); do
            sleep 0.1
            n=$(cat /proc/$p/task/*/comm 2>/dev/null | grep -c '^iou-wrk')
            [ "$n" -gt 0 ] && break
        done
        eval "wrk$fa=$n"
        wait $p
    done
    check "io_uring force_async=1 runs its I/Os in io-wq workers ($wrk1 iou-wrk threads; $wrk0 without)" \
        test "$wrk1" -gt 0 -a "$wrk0" = 0
    check_exit "io_uring nonvectored=0 (READV) runs, every block read" 0 "$SB_BIN" io --name=t \
        --filename=opt.dat --size=256k --ioengine=io_uring --rw=read --nonvectored=0 --fixedbufs=0 --output-format=json
    check "... 64 reads" test "$(counts "$T/out")" = "64 0 0"
else ok "io_uring options (# skip: io_uring does not work here)"; fi
check_exit "cmd_type is refused" 2 "$SB_BIN" io --name=t --filename=opt.dat --size=256k \
    --ioengine=io_uring --cmd_type=nvme
check_one_line "... in one line naming io_uring_cmd" "io_uring_cmd"
check_exit "thp with psync is refused" 2 "$SB_BIN" io --name=t --filename=opt.dat --size=256k --thp=1
check_one_line "... in one line naming mmap" "option of the mmap engine"
check_exit "nowait with posixaio is refused" 2 "$SB_BIN" io --name=t --filename=opt.dat --size=256k \
    --ioengine=posixaio --nowait=1
check_one_line "... in one line naming the engines that take it" "libaio, io_uring and pvsync2 engines"

# ---- e4defrag: EXT4_IOC_MOVE_EXT with a donor; ext4 only ----
if [ "$(stat -f -c %T "$T")" = ext2/ext3 ]; then
    rm -f fio.dat sb.dat
    "$SB_BIN" io --name=t --ioengine=e4defrag --rw=write --bs=4k --size=64k --filesize=64k \
        --filename=sb.dat --donorname=sb.def --output-format=json >sb.json 2>sb.err
    rc=$?
    check "e4defrag removes its donor" test ! -e sb.def
    if [ $have_fio = 1 ]; then
        fio --name=t --ioengine=e4defrag --rw=write --bs=4k --size=64k --filesize=64k --filename=fio.dat \
            --donorname=fio.def --output-format=json >fio.json 2>fio.err
        ferr=$(jq -r '.jobs[0].error' fio.json 2>/dev/null)
        if [ "$ferr" = 0 ]; then
            check "e4defrag: as fio ($(counts sb.json))" test $rc = 0 -a "$(counts sb.json)" = "$(counts fio.json)"
        else
            # where ext4 refuses the move (a kernel or mount that forbids it), both fail alike
            why=$(grep -o 'error=[A-Za-z ]*' fio.json fio.err 2>/dev/null | head -1 | cut -d= -f2)
            check "e4defrag fails as fio's does here (exit $rc, fio: $why)" \
                sh -c "test $rc = 1 && grep -q 'write at offset 0: $why' sb.err"
        fi
    else ok "e4defrag ran (exit $rc; # skip: no fio to compare with)"; fi
else ok "e4defrag on ext4 (# skip: the scratch directory is not on ext4)"; fi
if [ -d /dev/shm ] && SHM=$(mktemp -d /dev/shm/sbe4.XXXXXX); then
    check_exit "e4defrag off ext4 is refused" 1 "$SB_BIN" io --name=t --ioengine=e4defrag --rw=write \
        --size=64k --filename="$SHM/f" --donorname=d
    check_one_line "... in one line naming ext4" "not on ext4"
    check "... leaving no donor" test ! -e "$SHM/d" -a ! -e d
    rm -rf "$SHM"
fi
check_exit "e4defrag without donorname is refused" 2 "$SB_BIN" io --name=t --ioengine=e4defrag --rw=write \
    --size=64k --filename=sb.dat
check_one_line "... in one line naming donorname" "needs donorname"

# ---- the file and directory op engines: one timed operation per file ----
# opjob ENGINE TOOL DIR [ARGS...]: 40 files of 4k in DIR; the JSON report in DIR.json
opjob() {
    local e=$1 tool=$2 dir=$3; shift 3
    mkdir -p "$dir"
    if [ "$tool" = fio ]; then
        (cd "$dir" && fio --name=t --ioengine="$e" --nrfiles=40 --filesize=4k --bs=4k "$@" \
            --output-format=json >"$dir.json" 2>"$dir.err")
    else
        "$SB_BIN" io --name=t --ioengine="$e" --nrfiles=40 --filesize=4k --bs=4k --directory="$dir" "$@" \
            --output-format=json >"$dir.json" 2>"$dir.err"
    fi
}
# "reads writes clat-samples bytes" of a report
opcounts() { jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios) \(.read.clat_ns.N + .write.clat_ns.N) \(.read.io_bytes + .write.io_bytes)"' "$1" 2>/dev/null; }
for e in filecreate filestat filedelete dircreate dirstat dirdelete; do
    rm -rf "op-sb-$e" "op-fio-$e"
    opjob $e sb "$T/op-sb-$e"
    rc=$?
    if [ $rc != 0 ]; then not_ok "$e runs (exit $rc: $(head -c 300 "$T/op-sb-$e.err"))"; continue; fi
    check "$e: one timed operation per file, 40 of them ($(opcounts "$T/op-sb-$e.json"))" \
        test "$(opcounts "$T/op-sb-$e.json")" = "40 0 40 163840"
    check "$e: leaves nothing behind" test -z "$(ls -A "$T/op-sb-$e")"
    if [ $have_fio = 0 ] || fio --enghelp=$e 2>&1 | grep -q 'not found\|not loadable'; then
        ok "$e: as fio (# skip: fio $(fio --version 2>/dev/null) has no $e engine)"
        continue
    fi
    opjob $e fio "$T/op-fio-$e"
    check "$e: as fio ($(opcounts "$T/op-fio-$e.json"))" \
        test "$(opcounts "$T/op-sb-$e.json")" = "$(opcounts "$T/op-fio-$e.json")"
done
# a file larger than a block: fio counts its filesize in blocks (untouched), for a created
# file as for a stat'ed or deleted one
for e in filecreate filestat filedelete; do
    opjob $e sb "$T/op-16k-$e" --filesize=16k
    check "$e filesize=16k: 4 blocks counted per file, one sample per file ($(opcounts "$T/op-16k-$e.json"))" \
        test "$(opcounts "$T/op-16k-$e.json")" = "160 0 40 655360"
    if [ $have_fio = 1 ]; then
        opjob $e fio "$T/op-16kf-$e" --filesize=16k
        check "... as fio ($(opcounts "$T/op-16kf-$e.json"))" \
            test "$(opcounts "$T/op-16k-$e.json")" = "$(opcounts "$T/op-16kf-$e.json")"
    fi
done
opjob filecreate sb "$T/op-w" --rw=write
check "filecreate rw=write: the samples are writes" test "$(opcounts "$T/op-w.json")" = "0 40 40 163840"
if [ $have_strace = 1 ]; then
    rm -rf "$T/op-t"; mkdir "$T/op-t"
    strace_ff "$SB_BIN" io --name=t --ioengine=filecreate --nrfiles=40 --filesize=4k --directory="$T/op-t" >/dev/null 2>&1
    pat='openat\(AT_FDCWD, "[^"]*t\.0\.[0-9]+", O_RDWR\|O_CREAT\|O_EXCL\|O_NOFOLLOW\|O_CLOEXEC, 0600\)'
    check "filecreate creates each file with O_CREAT|O_EXCL ($(grep -cE "$pat" trace.txt))" \
        test "$(grep -cE "$pat" trace.txt)" = 40
    for ty in stat lstat statx; do
        strace_ff "$SB_BIN" io --name=t --ioengine=filestat --nrfiles=40 --filesize=4k --directory="$T/op-t" \
            --stat_type=$ty >/dev/null 2>&1
        case $ty in stat) pat='newfstatat\(AT_FDCWD, "[^"]*t\.0\.[0-9]+", \{[^}]*\}, 0\) += 0' ;;
                    lstat) pat='newfstatat\(AT_FDCWD, "[^"]*t\.0\.[0-9]+", \{[^}]*\}, AT_SYMLINK_NOFOLLOW\) += 0' ;;
                    statx) pat='statx\(AT_FDCWD, "[^"]*t\.0\.[0-9]+", AT_STATX_SYNC_AS_STAT, STATX_ALL' ;; esac
        check "filestat stat_type=$ty: one $ty per file ($(grep -cE "$pat" trace.txt))" \
            test "$(grep -cE "$pat" trace.txt)" = 40
    done
    strace_ff "$SB_BIN" io --name=t --ioengine=dirdelete --nrfiles=40 --filesize=4k --directory="$T/op-t" >/dev/null 2>&1
    check "dirdelete removes each directory with rmdir" test "$(grep -c 'rmdir(.*t\.0\.' trace.txt)" = 40
else ok "file op system calls (# skip: no strace)"; fi
mkdir -p "$T/op-x"; "$SB_BIN" io --name=t --ioengine=filestat --nrfiles=3 --filesize=4k --filename="$T/op-x/a" \
    >/dev/null 2>&1
check_exit "filecreate on a name that exists is refused" 1 "$SB_BIN" io --name=t --ioengine=filecreate \
    --filesize=4k --filename="$T/op-x/a"
check_one_line "... in one line" "makes each of its files itself"
check "... and the file is left alone" test -f "$T/op-x/a"
check_exit "filestat with stat_type on psync is refused" 2 "$SB_BIN" io --name=t --filename="$T/op-x/a" \
    --size=4k --stat_type=statx
check_one_line "... in one line naming the engines that take it" "filestat and dirstat engines"
check_exit "filecreate with end_fsync is refused" 2 "$SB_BIN" io --name=t --ioengine=filecreate --nrfiles=2 \
    --filesize=4k --directory="$T/op-x" --rw=write --end_fsync=1
check_one_line "... in one line" "opens no file to fsync"
check_exit "filedelete with --readonly is refused" 2 "$SB_BIN" io --name=t --ioengine=filedelete \
    --filename="$T/op-x/a" --size=4k --readonly
check_one_line "... in one line" "readonly"

# ---- sg: SCSI commands through SG_IO; refused without a SCSI device ----
check_exit "sg on a regular file is refused" 2 "$SB_BIN" io --name=t --ioengine=sg --filename="$T/sg.dat" --size=64k
check_one_line "... in one line naming the missing device" "needs a SCSI generic device (/dev/sgN)"
check "... and creates nothing" test ! -e "$T/sg.dat"
check_exit "sg on /dev/null (not sg's major) is refused" 2 "$SB_BIN" io --name=t --ioengine=sg --filename=/dev/null \
    --size=64k
check_one_line "... in one line" "is not one"
printf '[t]\nioengine=sg\nfilename=/dev/sg0\nsize=64k\nrw=write\nreadfua=1\nwritefua=1\nhipri=1\nsg_write_mode=write_stream\nstream_id=3\n' >sg.fio
check_exit "sg's options are taken (--parse-only)" 0 "$SB_BIN" io --parse-only sg.fio
check_exit "stream_id without write_stream is refused" 2 "$SB_BIN" io --name=t --ioengine=sg --filename=/dev/sg0 \
    --size=64k --stream_id=3 --parse-only
check_one_line "... in one line" "needs sg_write_mode=write_stream"
if ls /dev/sg[0-9]* >/dev/null 2>&1; then
    echo "# skip: sg runs are not tried on this machine's SCSI devices (they may hold data)"
fi

# ---- --enghelp: each engine's options, as fio lists them ----
check_exit "--enghelp lists the engines" 0 "$SB_BIN" io --enghelp
check "... every engine of this file among them" sh -c "for e in vsync splice falloc ftruncate e4defrag sg \
    filecreate filestat filedelete dircreate dirstat dirdelete; do grep -qx \"\$(printf '\\t')\$e\" '$T/out' || exit 1; done"
names() { sed -n 's/^\([A-Za-z0-9_]*\) *: .*/\1/p' | sort; }
if [ $have_fio = 1 ]; then
    for e in $(sed -n 's/^\t//p' "$T/out"); do
        fio --enghelp=$e 2>&1 | grep -q 'not found\|not loadable' && continue
        f=$(fio --enghelp=$e 2>/dev/null | names | grep -vx cmd_type | tr '\n' ' ')
        s=$("$SB_BIN" io --enghelp=$e 2>/dev/null | names | tr '\n' ' ')
        [ "$f" = "$s" ] || not_ok "--enghelp=$e: fio's options [$f], storbench's [$s]"
    done
    ok "--enghelp=ENGINE lists fio's engine options for every engine both have (cmd_type aside: refused)"
else ok "--enghelp against fio (# skip: no fio)"; fi
check_exit "--enghelp=filestat,stat_type describes the option" 0 "$SB_BIN" io --enghelp=filestat,stat_type
check "... with its values" grep -q "values: stat lstat statx" "$T/out"
check_exit "--enghelp=nosuch is refused" 2 "$SB_BIN" io --enghelp=nosuch
check_one_line "... in one line" "not an engine"

finish
