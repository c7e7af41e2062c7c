#!/bin/bash
# CLI tests of fio's file-handling and system options (job/fileopts.c, run/system.c), each
# shown to change what runs and, where fio has it, compared with fio 3.33 on the same job:
# create_only, file_append, a filename's parent directories, directory=A:B,
# filesize=LO-HI, pre_read (the page cache, by
# fincore), opendir, zonerange (the offsets of the latency log), write_hint,
# sync_file_range, unlink_each_loop and lockfile (strace), cpumask and numa_mem_policy=interleave (strace), lockmem
# (VmLck, read by exec_prerun), hugepage-size (the huge mapping's length), ioscheduler (a
# loop device's scheduler during the job and after; a tmpfs file refused), exec_prerun /
# exec_postrun (their output files; refused from an included file), cgroup (cgroup v2:
# the job inside, the cgroup gone after), uid/gid (the files and commands the user's) and
# the options refused in one line.
. "$(dirname "$0")/lib.sh"
io() { "$SB_BIN" io --quiet "$@"; }
have_fio=0
command -v fio >/dev/null && have_fio=1
have_strace=0
command -v strace >/dev/null && have_strace=1
cd "$T" || exit 1 # fio-style output files (JOB.prerun.txt, logs) land in the scratch

# create_only: the file laid out, no I/O (terse field 6: the KiB read)
check_exit "create_only=1 runs" 0 io --name=co --filename="$T/co" --rw=read --size=2m --create_only=1 \
    --output-format=terse
check "... the file is made (2 MiB) and nothing is read" \
    test "$(stat -c %s "$T/co")" = 2097152 -a "$(cut -d';' -f6 "$T/out")" = 0
if [ $have_fio = 1 ]; then
    fio --name=co --filename="$T/cofio" --rw=read --size=2m --create_only=1 --output-format=terse >"$T/fio.out" 2>&1
    check "... as fio's (2 MiB, 0 read)" \
        test "$(stat -c %s "$T/cofio")" = 2097152 -a "$(cut -d';' -f6 "$T/fio.out")" = 0
fi

# file_append: the writes go after the file's end; what was there stays
head -c 1M /dev/urandom >"$T/ap"
cp "$T/ap" "$T/ap.orig"
check_exit "file_append=1 runs" 0 io --filename="$T/ap" --rw=write --size=1m --file_append=1
check "... the file is 2 MiB, its first MiB unchanged" \
    sh -c "test \$(stat -c %s '$T/ap') = 2097152 && cmp -s -n 1048576 '$T/ap' '$T/ap.orig'"
if [ $have_fio = 1 ]; then
    cp "$T/ap.orig" "$T/apfio"
    fio --name=ap --filename="$T/apfio" --rw=write --size=1m --file_append=1 >/dev/null 2>&1
    check "... as fio's (2 MiB)" test "$(stat -c %s "$T/apfio")" = 2097152
fi

# a filename's missing directories are made (0700), as fio's create_work_dirs
check_exit "filename=d1/d2/f: the directories are made" 0 io --filename="$T/d1/d2/f" --rw=write --size=64k
check "... 0700 each, and the file is there" \
    test "$(stat -c %a "$T/d1")$(stat -c %a "$T/d1/d2")" = 700700 -a -f "$T/d1/d2/f"

# directory=A:B: thread j's files in the (j mod 2)-th, as fio's (in a private directory
# inside each, which goes after the job)
mkdir -p "$T/dA" "$T/dB"
check_exit "directory=A:B with numjobs=3 runs" 0 io --name=dd --directory="$T/dA:$T/dB" --numjobs=3 \
    --rw=write --size=64k --exec_prerun="cd '$T' && find dA dB -type f | sed 's,/storbench-[^/]*,,' | sort"
check "... threads 0 and 2 in A, 1 in B ($(tr '\n' ' ' <dd.prerun.txt))" \
    test "$(tr '\n' ' ' <dd.prerun.txt)" = "dA/dd.0.0 dA/dd.2.0 dB/dd.1.0 "
check "... and nothing left in either" test -z "$(find "$T/dA" "$T/dB" -mindepth 1)"
if [ $have_fio = 1 ]; then
    fio --name=dd --directory="$T/dA:$T/dB" --numjobs=3 --rw=write --size=64k >/dev/null 2>&1
    check "... where fio puts them" test "$(cd "$T" && find dA dB -type f | sort | tr '\n' ' ')" = \
        "$(tr '\n' ' ' <dd.prerun.txt)"
    rm -f "$T"/dA/* "$T"/dB/*
fi

# filesize=LO-HI: each file's size drawn in the range (whole blocks), the job does each
# file's bytes; as fio's (its own draws)
sizes_ok() { # FILE_OF_SIZES IO_BYTES: 8 sizes in [16k, 256k), multiples of 4k, not all alike, sum = IO
    awk -v io="$2" '{ if ($1 < 16384 || $1 >= 262144 || $1 % 4096) bad = 1; s += $1; n++; u[$1] = 1 }
        END { k = 0; for (x in u) k++; exit !(n == 8 && !bad && k > 1 && s == io) }' "$1"
}
mkdir -p "$T/fsz"
io --name=fz --directory="$T/fsz" --nrfiles=8 --filesize=16k-256k --rw=write --output-format=json \
    --exec_postrun="stat -c %s $T/fsz/storbench-*/*" >"$T/fz.json" 2>/dev/null
check "filesize=16k-256k: 8 files of sizes in the range, written whole ($(tr '\n' ' ' <fz.postrun.txt))" \
    sizes_ok fz.postrun.txt "$(jq '.jobs[0].write.io_bytes' "$T/fz.json")"
if [ $have_fio = 1 ]; then
    mkdir -p "$T/fszfio"
    fio --name=fz --directory="$T/fszfio" --nrfiles=8 --filesize=16k-256k --rw=write --output-format=json \
        >"$T/fzfio.json" 2>/dev/null
    stat -c %s "$T"/fszfio/* >"$T/fzfio.sizes"
    check "... as fio's ($(tr '\n' ' ' <"$T/fzfio.sizes"))" sizes_ok "$T/fzfio.sizes" \
        "$(jq '.jobs[0].write.io_bytes' "$T/fzfio.json")"
fi
# ... with sizes drawn (bsrange, joelandman-test.fio's): each file's I/Os keep to its own
# size (strace -y: each call's file, length and offset against the file's size after the run)
if [ $have_strace = 1 ]; then
    rm -rf "$T/fsz" && mkdir -p "$T/fsz"
    strace -f -qq -y -e trace=pread64,pwrite64 -o "$T/fr.st" "$SB_BIN" io --quiet --name=fr \
        --directory="$T/fsz" --nrfiles=8 --filesize=16k-256k --bsrange=4k-32k --rw=randrw --size=256k \
        --exec_postrun="stat -c '%n %s' $T/fsz/storbench-*/*" >/dev/null 2>&1
    inside() {
        awk 'NR == FNR { size[$1] = $2; next }
             match($0, /p(read|write)64\([0-9]+<[^>]*>/) {
                 f = substr($0, RSTART, RLENGTH); sub(/^[^<]*</, "", f); sub(/>$/, "", f)
                 if (!(f in size)) next
                 n = split($0, a, ", "); o = a[n]; sub(/\).*/, "", o); c++; if (o + a[n - 1] > size[f]) bad++ }
             END { exit !(c > 8 && !bad && length(size) == 8) }' fr.postrun.txt "$T/fr.st"
    }
    check "filesize=16k-256k with bsrange=4k-32k: every I/O inside its own file ($(awk '{printf "%s ", $2}' fr.postrun.txt))" \
        inside
else
    ok "# SKIP filesize=LO-HI with bsrange: no strace"
fi

# directory=A:B with filename: the named file below the first, every clone on it (fio's add_file)
check_exit "directory=A:B with filename runs" 0 io --name=dd --directory="$T/dA:$T/dB" --filename=f --numjobs=2 \
    --rw=write --size=64k
check "... the one file dA/f, kept" test "$(cd "$T" && find dA dB -type f | tr '\n' ' ')" = "dA/f "
rm -f "$T"/dA/* "$T"/dB/*

# pre_read: the whole region in the page cache before a job that reads one block
if command -v fincore >/dev/null; then
    res() { fincore -b -n -o RES "$1"; }
    for pr in 0 1; do
        io --filename="$T/pr$pr" --rw=read --size=16m --number_ios=1 --pre_read=$pr >/dev/null 2>&1
    done
    check "pre_read=1: all 16 MiB cached ($(res "$T/pr1")); pre_read=0: little ($(res "$T/pr0"))" \
        test "$(res "$T/pr1")" = 16777216 -a "$(res "$T/pr0")" -lt 8388608
    if [ $have_fio = 1 ]; then
        fio --name=pr --filename="$T/prfio" --rw=read --size=16m --number_ios=1 --pre_read=1 >/dev/null 2>&1
        check "... as fio's ($(res "$T/prfio"))" test "$(res "$T/prfio")" = "$(res "$T/pr1")"
    fi
else
    ok "# SKIP pre_read: no fincore"
fi

# opendir: every regular file below the directory, a symlink not followed
mkdir -p "$T/od/sub"
head -c 64k /dev/urandom >"$T/od/x1"
head -c 64k /dev/urandom >"$T/od/sub/x2"
ln -s "$T/co" "$T/od/link"
check_exit "opendir runs" 0 io --name=od --opendir="$T/od" --rw=read --size=128k --write_lat_log=od \
    --log_offset=1
check "... 32 reads of 4 KiB over its two files" test "$(wc -l <od_clat.1.log)" = 32
if [ $have_fio = 1 ]; then
    mkdir fio && (cd fio && fio --name=od --opendir="$T/od" --rw=read --size=128k --write_lat_log=od \
        --log_offset=1 >/dev/null 2>&1)
    check "... as fio's" test "$(wc -l <fio/od_clat.1.log)" = 32
fi
# ... without size=: the job is as large as its files, each file its own size (fio's
# setup_files); storbench used to take its 1 GiB default and refuse the read
odreads() { jq '.jobs[0].read.total_ios' "$1"; }
mkdir -p "$T/od2"
head -c 64k /dev/urandom >"$T/od2/a"
head -c 128k /dev/urandom >"$T/od2/b"
for d in od od2; do
    want=$([ $d = od ] && echo 32 || echo 48)
    check_exit "opendir without size= ($d: files of $([ $d = od ] && echo "64k and 64k" || echo "64k and 128k"))" \
        0 io --name=od --opendir="$T/$d" --rw=read --output-format=json
    check "... each file read whole: $want reads of 4 KiB ($(odreads "$T/out"))" test "$(odreads "$T/out")" = $want
    if [ $have_fio = 1 ]; then
        fio --name=od --opendir="$T/$d" --rw=read --output-format=json 2>/dev/null | sed -n '/^{/,$p' >"$T/fio.json"
        check "... as fio's ($(odreads "$T/fio.json"))" test "$(odreads "$T/fio.json")" = $want
    fi
done
check_exit "opendir without size=, files of different sizes, zipf offsets: exit 2" 2 io --name=od \
    --opendir="$T/od2" --rw=randread --random_distribution=zipf:1.2
check_one_line "... one line" "give size="
check_exit "opendir of a directory that does not exist: exit 2" 2 io --opendir="$T/d1/d2/none" --size=64k
mkdir -p "$T/empty"
check_exit "opendir with no file: exit 2" 2 io --opendir="$T/empty" --size=64k
check_one_line "... one line" "no regular file"

# zonerange: zonesize bytes of each zonerange span are used (the rest skipped)
head -c 256k /dev/zero >"$T/zr"
offs() { awk -F, '{gsub(/ /, "", $5); print $5}' "$1" | sort -n | uniq | tr '\n' ' '; }
check_exit "zonerange runs" 0 io --name=zr --filename="$T/zr" --rw=read --size=256k --zonemode=strided \
    --zonesize=8k --zonerange=32k --write_lat_log=zr --log_offset=1
check "... the first 8 KiB of each 32 KiB ($(offs zr_clat.1.log | cut -c1-30)...)" \
    test "$(offs zr_clat.1.log)" = "0 4096 32768 36864 65536 69632 98304 102400 131072 135168 163840 167936 196608 200704 229376 233472 "
if [ $have_fio = 1 ]; then
    (cd fio && fio --name=zr --filename="$T/zr" --rw=read --size=256k --zonemode=strided --zonesize=8k \
        --zonerange=32k --write_lat_log=zr --log_offset=1 >/dev/null 2>&1)
    check "... the offsets fio visits" test "$(offs fio/zr_clat.1.log)" = "$(offs zr_clat.1.log)"
fi
check_exit "zonerange below zonesize: exit 2" 2 io --filename="$T/zr" --size=256k --zonemode=strided \
    --zonesize=8k --zonerange=4k
check_one_line "... one line" "zonerange"

if [ $have_strace = 1 ]; then
    # calls sbio|fio SYSCALLS ARGS...: the syscalls SYSCALLS a run makes, one per line
    calls() {
        local sys=$2 run=("$SB_BIN" io --quiet)
        [ "$1" = fio ] && run=(fio)
        shift 2
        strace -f -qq -e trace="$sys" -o "$T/strace" "${run[@]}" "$@" >/dev/null 2>&1
        sed 's/^[0-9]* *//' "$T/strace"
    }
    c=$(calls sbio fcntl --filename="$T/wh" --rw=write --size=64k --write_hint=short)
    check "write_hint=short: fcntl F_SET_RW_HINT" grep -q 'fcntl(.*\(F_SET_RW_HINT\|0x40c\)' <<<"$c"
    c=$(calls sbio fcntl --filename="$T/wh" --rw=write --size=64k)
    check "... none without it" test -z "$(grep '\(F_SET_RW_HINT\|0x40c\)' <<<"$c")"
    if [ $have_fio = 1 ]; then
        c=$(calls fio fcntl --name=wh --filename="$T/whfio" --rw=write --size=64k --write_hint=short)
        check "... fio makes the same call" grep -q 'fcntl(.*\(F_SET_RW_HINT\|0x40c\)' <<<"$c"
    fi
    c=$(calls sbio sync_file_range --filename="$T/sfr" --rw=write --size=64k \
        --sync_file_range=wait_before,write:4)
    check "sync_file_range=wait_before,write:4: 3 calls over 16 writes (none after the last, as fio's), those flags" \
        test "$(grep -c 'SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE)' <<<"$c")" = 3
    if [ $have_fio = 1 ]; then
        c=$(calls fio sync_file_range --name=sfr --filename="$T/sfrfio" --rw=write --size=64k \
            --sync_file_range=wait_before,write:4)
        check "... fio's calls carry the same flags" grep -q 'SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE)' <<<"$c"
    fi
    c=$(calls sbio unlink,unlinkat --filename="$T/ul" --rw=write --size=1m --loops=3 --unlink_each_loop=1)
    check "unlink_each_loop with loops=3: the file unlinked twice" test "$(grep -c 'unlink.*ul") = 0' <<<"$c")" = 2
    check "... and made again: 1 MiB at the end" test "$(stat -c %s "$T/ul")" = 1048576
    if [ $have_fio = 1 ]; then
        c=$(calls fio unlink,unlinkat --name=ul --filename="$T/ulfio" --rw=write --size=1m --loops=3 \
            --unlink_each_loop=1)
        check "... as fio's (twice)" test "$(grep -c 'unlink.*ulfio") = 0' <<<"$c")" = 2
    fi
    # lockfile: two threads on one file; strace marks a call another thread's call cut
    # into "<unfinished ...>": under exclusive none, under readwrite no write
    head -c 2m /dev/urandom >"$T/lk"
    for lk in exclusive readwrite; do
        c=$(calls sbio pread64,pwrite64 --filename="$T/lk" --rw=randrw --size=2m --numjobs=2 --lockfile=$lk)
        eval "n_$lk=\$(grep -c 'p\(read\|write\)64(' <<<\"\$c\")"
        eval "cut_$lk=\$(grep -c 'unfinished' <<<\"\$c\")"
        eval "wcut_$lk=\$(grep -c 'pwrite64(.*unfinished' <<<\"\$c\")"
    done
    check "lockfile=exclusive: no two I/Os of the threads at once ($cut_exclusive of $n_exclusive cut)" \
        test "$n_exclusive" -ge 512 -a "$cut_exclusive" = 0
    check "lockfile=readwrite: no write beside another I/O ($wcut_readwrite writes cut; reads share: $cut_readwrite)" \
        test "$n_readwrite" -ge 512 -a "$wcut_readwrite" = 0
    # lockfile with several files per thread: a lock per file (fio's lock_file() on the
    # io_u's file). strace -y names each call's file; overlaps() counts the calls that
    # started while another thread's call on the same file (same) or on the other file
    # (other) was in flight
    overlaps() {
        strace -f -qq -y -e trace=pread64,pwrite64 -o "$T/strace" "$SB_BIN" io --quiet \
            --filename="$T/lk1:$T/lk2" --rw=randrw --size=4m --numjobs=2 "$@" >/dev/null 2>&1
        awk '{ pid = $1
               if ($0 ~ /resumed>/) { delete inf[pid]; next }
               if (!match($0, /<[^>]*>/)) next
               f = substr($0, RSTART, RLENGTH)
               for (p in inf) if (p != pid) { if (inf[p] == f) same++; else other++ }
               if ($0 ~ /unfinished \.\.\.>/) inf[pid] = f }
             END { print same + 0, other + 0 }' "$T/strace"
    }
    head -c 2m /dev/urandom >"$T/lk1"
    head -c 2m /dev/urandom >"$T/lk2"
    read -r same_none other_none <<<"$(overlaps --lockfile=none)"
    read -r same_ex other_ex <<<"$(overlaps --lockfile=exclusive)"
    check "lockfile=exclusive, two files per thread: no two I/Os on one file at once ($same_ex; without: $same_none)" \
        test "$same_ex" = 0 -a "$same_none" -gt 0
    check "... while I/Os on the two files overlap ($other_ex): a lock per file, not one for all" \
        test "$other_ex" -gt 0
    c=$(calls sbio sched_setaffinity --filename="$T/co" --rw=read --size=64k --cpumask=0x1)
    check "cpumask=0x1: the thread on CPU 0" grep -q 'sched_setaffinity(.*\[0\])' <<<"$c"
    c=$(calls sbio set_mempolicy --filename="$T/co" --rw=read --size=64k --numa_mem_policy=interleave)
    check "numa_mem_policy=interleave (no nodes: all, as fio's)" grep -q 'MPOL_INTERLEAVE' <<<"$c"
else
    ok "# SKIP write_hint, sync_file_range, cpumask, numa_mem_policy: no strace"
fi
check_exit "cpumask=0: exit 2" 2 io --filename="$T/co" --size=64k --cpumask=0
n=$(nproc --all)
if [ "$n" -lt 60 ]; then
    check_exit "cpumask naming a CPU this process may not use: exit 2" 2 io --filename="$T/co" --size=64k \
        --cpumask=$((1 << n))
    check_one_line "... one line" "not available"
fi

# lockmem: that much memory locked while the job runs (the prerun reads the job's VmLck)
check_exit "lockmem=8m runs" 0 io --name=lm --filename="$T/co" --rw=read --size=64k --lockmem=8m \
    --exec_prerun='grep VmLck /proc/$PPID/status'
check "... 8192 kB locked ($(tr -s ' \t' ' ' <lm.prerun.txt))" grep -q 'VmLck:[[:space:]]*8192 kB' lm.prerun.txt

# hugepage-size: huge-page buffers are whole pages of it (the refused mapping says its length)
if [ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)" = 0 ]; then
    check_exit "mem=mmaphuge without huge pages: exit 1" 1 io --filename="$T/co" --size=64k --mem=mmaphuge \
        --hugepage-size=8m
    check "... the mapping asked was 8 MiB (hugepage-size)" grep -q '8388608 bytes' "$T/err"
fi

# exec_prerun / exec_postrun: /bin/sh -c, output in JOB.prerun.txt / JOB.postrun.txt
check_exit "exec_prerun and exec_postrun run" 0 io --name=ex --filename="$T/co" --rw=read --size=64k \
    --exec_prerun='echo before; echo to-err >&2' --exec_postrun='echo after'
check "... their output in ex.prerun.txt and ex.postrun.txt" \
    test "$(cat ex.prerun.txt)" = "$(printf 'before\nto-err')" -a "$(cat ex.postrun.txt)" = after
if [ $have_fio = 1 ]; then
    # one command: fio appends its redirection to the command's text, so of a list only
    # the last command's output reaches its file (storbench's takes the whole command's)
    io --name=ex1 --filename="$T/co" --rw=read --size=64k --exec_prerun='echo before >&2' \
        --exec_postrun='echo after' >/dev/null 2>&1
    (cd fio && fio --name=ex1 --filename="$T/co" --rw=read --size=64k --exec_prerun='echo before >&2' \
        --exec_postrun='echo after' >/dev/null 2>&1)
    check "... as fio's files" sh -c "cmp -s ex1.prerun.txt fio/ex1.prerun.txt && cmp -s ex1.postrun.txt fio/ex1.postrun.txt"
fi
check_exit "a failing exec_prerun fails the job" 1 io --name=ex --filename="$T/co" --size=64k --exec_prerun='exit 3'
check "... naming its status" grep -q 'exit status 3' "$T/err"
printf '[inc]\nfilename=%s\nsize=64k\ninclude inc.fio\n' "$T/co" >"$T/main.fio"
printf 'exec_prerun=touch %s/ran\n' "$T" >"$T/inc.fio"
check_exit "exec_prerun from an included file: exit 2" 2 "$SB_BIN" io --quiet "$T/main.fio"
check_one_line "... one line" "included file may not run commands"
check "... and nothing ran" test ! -e "$T/ran"
printf '[top]\nfilename=%s\nsize=64k\nexec_prerun=touch %s/ran\n' "$T/co" "$T" >"$T/top.fio"
check_exit "exec_prerun in the job file named on the command line runs" 0 "$SB_BIN" io --quiet "$T/top.fio"
check "... it ran" test -e "$T/ran"

# ioscheduler: a loop device of our own; the scheduler during the job (read by the
# prerun, which runs once it is set) and after (restored)
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && head -c 8M /dev/zero >"$T/lo.img" &&
    L=$(losetup -f --show "$T/lo.img" 2>/dev/null); then
    q=/sys/block/${L#/dev/}/queue/scheduler
    before=$(cat "$q")
    other=$(tr ' ' '\n' <"$q" | grep -v '^\[' | grep -v '^none$' | grep . | head -1)
    if [ -n "$other" ]; then
        check_exit "ioscheduler=$other on $L runs" 0 io --name=sc --filename="$L" --rw=read --size=1m \
            --ioscheduler="$other" --exec_prerun="cat $q"
        check "... the job ran with [$other] ($(cat sc.prerun.txt))" grep -q "\[$other\]" sc.prerun.txt
        check "... and the scheduler is back after ($(cat "$q"))" test "$(cat "$q")" = "$before"
        # interrupted (Ctrl-C) while it runs: put back all the same
        "$SB_BIN" io --quiet --filename="$L" --rw=randread --size=4m --time_based --runtime=30 \
            --ioscheduler="$other" >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 50); do grep -q "\[$other\]" "$q" && break; sleep 0.1; done
        sleep 0.5
        kill -INT $pid
        wait $pid
        check "... and back after an interrupted job ($(cat "$q"))" test "$(cat "$q")" = "$before"
        # killed outright: the scheduler stays changed until the next job starts, which puts
        # it back from the killed one's journal (a private state directory: this test's own)
        STORBENCH_STATE_DIR=$T/state "$SB_BIN" io --quiet --filename="$L" --rw=randread --size=4m \
            --time_based --runtime=30 --ioscheduler="$other" >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 50); do grep -q "\[$other\]" "$q" && break; sleep 0.1; done
        kill -KILL $pid
        wait $pid 2>/dev/null
        check "... killed (SIGKILL) while it runs: still [$other] ($(cat "$q"))" grep -q "\[$other\]" "$q"
        check "... its journal left in the state directory" test -n "$(ls "$T"/state/io-"$pid"-*.undo 2>/dev/null)"
        STORBENCH_STATE_DIR=$T/state "$SB_BIN" io --quiet --filename="$T/co" --rw=read --size=64k \
            >/dev/null 2>kill.err
        check "... the next job puts it back ($(cat "$q"))" test "$(cat "$q")" = "$before"
        check "... and says so ($(head -c 200 kill.err))" grep -q "put back the I/O scheduler $(echo "$before" |
            sed 's/.*\[\(.*\)\].*/\1/')" kill.err
        check "... and the journal is gone" test -z "$(ls "$T"/state/ 2>/dev/null)"
        check_exit "ioscheduler=nosuch: exit 2" 2 io --filename="$L" --rw=read --size=1m --ioscheduler=nosuch
        check "... the scheduler unchanged" test "$(cat "$q")" = "$before"
    else
        ok "# SKIP ioscheduler: $L offers no other scheduler ($before)"
    fi
    losetup -d "$L"
else
    ok "# SKIP ioscheduler: needs root and losetup"
fi
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
    check_exit "ioscheduler on a tmpfs file: exit 2 (fio skips it silently)" 2 io \
        --filename=/dev/shm/sbtest-sched.$$ --size=64k --ioscheduler=none
    check_one_line "... one line" "no block device"
    rm -f /dev/shm/sbtest-sched.$$
fi

# cgroup: a cgroup v2 made under ours, the job inside it, removed after
cg_mnt=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/self/mounts)
cg_self=$(sed -n 's/^0:://p' /proc/self/cgroup)
cg_base=$cg_mnt${cg_self%/}
name=sbtest-cg.$$
if [ -n "$cg_mnt" ] && [ -w "$cg_base" ] && mkdir "$cg_base/$name.probe" 2>/dev/null; then
    rmdir "$cg_base/$name.probe"
    check_exit "cgroup=$name runs" 0 io --name=cg --filename="$T/co" --rw=read --size=64k --cgroup=$name \
        --exec_prerun='grep ^0:: /proc/$PPID/cgroup'
    check "... the job ran in it ($(cat cg.prerun.txt))" grep -q "/$name\$" cg.prerun.txt
    check "... which is gone after" test ! -d "$cg_base/$name"
    check_exit "cgroup_nodelete=1 runs" 0 io --filename="$T/co" --rw=read --size=64k --cgroup=$name \
        --cgroup_nodelete=1
    check "... and keeps it" test -d "$cg_base/$name"
    rmdir "$cg_base/$name" 2>/dev/null
    # killed outright inside its cgroup: the next job removes the cgroup, now empty
    STORBENCH_STATE_DIR=$T/state "$SB_BIN" io --quiet --filename="$T/co" --rw=read --size=64k \
        --time_based --runtime=30 --cgroup=$name >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 50); do grep -q "/$name\$" /proc/$pid/cgroup 2>/dev/null && break; sleep 0.1; done
    kill -KILL $pid
    wait $pid 2>/dev/null
    check "... killed (SIGKILL) in its cgroup: the cgroup is left" test -d "$cg_base/$name"
    STORBENCH_STATE_DIR=$T/state "$SB_BIN" io --quiet --filename="$T/co" --rw=read --size=64k \
        >/dev/null 2>kill.err
    check "... the next job removes it ($(head -c 200 kill.err))" test ! -d "$cg_base/$name"
    check "... and the journal is gone" test -z "$(ls "$T"/state/ 2>/dev/null)"
    # with cgroup_nodelete the user keeps it, killed or not
    STORBENCH_STATE_DIR=$T/state "$SB_BIN" io --quiet --filename="$T/co" --rw=read --size=64k \
        --time_based --runtime=30 --cgroup=$name --cgroup_nodelete=1 >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 50); do grep -q "/$name\$" /proc/$pid/cgroup 2>/dev/null && break; sleep 0.1; done
    kill -KILL $pid
    wait $pid 2>/dev/null
    STORBENCH_STATE_DIR=$T/state "$SB_BIN" io --quiet --filename="$T/co" --rw=read --size=64k >/dev/null 2>&1
    check "... cgroup_nodelete=1 killed: the next job leaves the cgroup" test -d "$cg_base/$name"
    rmdir "$cg_base/$name" 2>/dev/null
    if [ ! -e "$cg_base/io.weight" ] && ! grep -qw io "$cg_base/cgroup.subtree_control" 2>/dev/null; then
        check_exit "cgroup_weight without the io controller: exit 2" 2 io --filename="$T/co" --size=64k \
            --cgroup=$name --cgroup_weight=200
        check_one_line "... one line" "io controller"
        check "... the cgroup removed" test ! -d "$cg_base/$name"
    fi
else
    check_exit "cgroup where cgroup v2 is not writable: exit 2" 2 io --filename="$T/co" --size=64k --cgroup=$name
    check_one_line "... one line" "cgroup"
fi
check_exit "cgroup=a/b: exit 2" 2 io --filename="$T/co" --size=64k --cgroup=a/b

# a dead run's journal is replayed only where it names a scheduler file under /sys or an
# empty cgroup: a planted one naming other files changes nothing, and goes
mkdir -p "$T/hostile" "$T/hstate" && chmod 700 "$T/hstate" && echo keep >"$T/hostile/victim"
printf 'storbench-io\t1\t999999999\nsched\t%s\tnone\ncgroup\t%s\t\nsched\t/sys/../%s\tx\n' \
    "$T/hostile/victim" "$T/hostile" "$T/hostile/victim" >"$T/hstate/io-999999999-abcdef.undo"
STORBENCH_STATE_DIR=$T/hstate "$SB_BIN" io --quiet --filename="$T/co" --rw=read --size=64k >/dev/null 2>&1
check "a planted journal: the file it names untouched ($(cat "$T/hostile/victim"))" \
    test "$(cat "$T/hostile/victim")" = keep
check "... the directory it names kept" test -d "$T/hostile"
check "... the journal replayed and gone" test ! -e "$T/hstate/io-999999999-abcdef.undo"

# uid/gid: the job's files made and its I/O done as that user; its commands run as it
if [ "$(id -u)" = 0 ]; then
    chmod 711 "$T" && mkdir -m 777 "$T/u"
    check_exit "uid=65534 gid=65534 runs" 0 sh -c "cd '$T/u' && '$SB_BIN' io --quiet --name=u \
        --filename='$T/u/f' --rw=write --size=64k --uid=65534 --gid=65534 --exec_prerun='id -u; id -ru; id -g'"
    check "... the file is the user's ($(stat -c %u:%g "$T/u/f"))" test "$(stat -c %u:%g "$T/u/f")" = 65534:65534
    check "... the prerun ran as it ($(tr '\n' ' ' <"$T/u/u.prerun.txt"))" \
        test "$(tr '\n' ' ' <"$T/u/u.prerun.txt")" = "65534 65534 65534 "
    head -c 64k /dev/zero >"$T/u/root"
    chmod 600 "$T/u/root"
    check_exit "uid=65534 reading root's 0600 file: exit 1" 1 io --filename="$T/u/root" --rw=read --size=64k \
        --uid=65534
    check "... permission denied" grep -q 'Permission denied' "$T/err"
    check_exit "uid with a directory: the files go in a private directory of the user's" 0 sh -c \
        "cd '$T/u' && '$SB_BIN' io --quiet --name=ud --directory='$T/u' --rw=write --size=64k --uid=65534 \
        --exec_prerun='stat -c %u \$(ls -d $T/u/storbench-*)'"
    check "... owned by 65534 ($(cat "$T/u/ud.prerun.txt"))" test "$(cat "$T/u/ud.prerun.txt")" = 65534
    if command -v setpriv >/dev/null; then
        check_exit "uid when not root: exit 2" 2 setpriv --reuid=65534 --regid=65534 --clear-groups \
            "$SB_BIN" io --quiet --filename="$T/u/x" --size=64k --uid=0
        check_one_line "... one line" "only root"
    fi
    chmod 700 "$T"
fi
check_exit "uid=x: exit 2" 2 io --filename="$T/co" --size=64k --uid=x

# refused, each in one line naming why
refused() {
    local what=$1 word=$2
    shift 2
    check_exit "$what: exit 2" 2 io --filename="$T/co" --size=64k "$@"
    check_one_line "... one line" "$word"
}
refused "atomic=1" "atomic" --rw=write --direct=1 --atomic=1
refused "unlink_each_loop on a read job (fio's fails its second loop)" "ENOENT" --rw=read --loops=2 \
    --unlink_each_loop=1
refused "write_barrier=4" "sg engine" --rw=write --write_barrier=4
refused "profile=act" "ACT profile" --profile=act
refused "sync_file_range with fsync" "one periodic sync" --rw=write --sync_file_range=write --fsync=2
refused "sync_file_range=bogus" "wait_before" --sync_file_range=bogus
# numa_mem_policy=1: fio's run refuses it (its --parse-only does not read it): exit 1
check_exit "numa_mem_policy=1 (as fio's run refuses it): exit 1" 1 io --filename="$T/co" --size=64k \
    --numa_mem_policy=1
check_one_line "... one line" "default"
finish
