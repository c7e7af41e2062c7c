#!/bin/bash
# CLI tests of fio options met in other people's job files (tests/data/fio-wild): each
# accepted option changes what runs, as fio's does: size=N% of the file, overwrite lays a
# write job's file out first, fadvise_hint's advice (strace), mem/iomem's buffers (shm
# removed at once; huge pages refused in one line where none are configured), sync's
# O_SYNC/O_DSYNC, blockalign's alias ba, allrandrepeat, the ring options sqthread_poll,
# nowait and hipri refused on engines without them, clocksource's clocks taken (their
# effect: test_fio_clock.sh), a job file without filename or directory run in the current
# directory, and the values of dev3's job files (tests/data/fio-wild/README.md, "Fourth batch").
. "$(dirname "$0")/lib.sh"
io() { "$SB_BIN" io --quiet "$@"; }
jqv() { jq -r "$1" "$2" 2>/dev/null; }
have_strace=0
command -v strace >/dev/null && have_strace=1

head -c 4M /dev/urandom >"$T/f"
check_exit "size=50% of a 4 MiB file" 0 io --filename="$T/f" --rw=read --size=50% --output-format=json
check "... reads 2 MiB" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 2097152
check_exit "size=150%: exit 2" 2 io --filename="$T/f" --rw=read --size=150%
check_one_line "... one line" "percentage"
check_exit "size=10% of a file that does not exist: exit 2" 2 io --filename="$T/none" --rw=read --size=10%
check_one_line "... naming the file" "does not exist"

# overwrite: a write job's file is written before the run (its blocks all there), without
# it only allocated (fallocate=none: a sparse file holding only what the run wrote)
for ow in 0 1; do
    rm -f "$T/o$ow"
    check_exit "overwrite=$ow runs" 0 io --filename="$T/o$ow" --rw=write --size=4m --number_ios=1 \
        --fallocate=none --overwrite=$ow --output-format=terse
done
check "overwrite=1 laid the 4 MiB out ($(du -k "$T/o1" | cut -f1) KiB), overwrite=0 did not ($(du -k "$T/o0" | cut -f1) KiB)" \
    test "$(du -k "$T/o1" | cut -f1)" -ge 4096 -a "$(du -k "$T/o0" | cut -f1)" -lt 1024

if [ $have_strace = 1 ]; then
    # traced SYSCALLS PATTERN IO_ARGS...: the run's calls of SYSCALLS include PATTERN
    traced() {
        strace -f -qq -e trace="$1" "$SB_BIN" io --quiet --output-format=terse --filename="$T/f" \
            --size=1m "${@:3}" 2>&1 >/dev/null | grep -q -- "$2"
    }
    untraced() { ! traced "$@"; }
    check "fadvise_hint's default: FADV_RANDOM for a random job" traced fadvise64 POSIX_FADV_RANDOM --rw=randread
    check "... FADV_SEQUENTIAL for a sequential one" traced fadvise64 POSIX_FADV_SEQUENTIAL --rw=read
    check "fadvise_hint=0: no advice" untraced fadvise64 'FADV_SEQUENTIAL' --rw=read --fadvise_hint=0
    check "fadvise_hint=random on a sequential job" traced fadvise64 POSIX_FADV_RANDOM --rw=read --fadvise_hint=random
    check "mem=shm: a System V segment, removed at once" traced shmget,shmctl IPC_RMID --rw=read --mem=shm
    check "iomem=mmapshared: a shared anonymous mapping" traced mmap 'MAP_SHARED|MAP_ANONYMOUS' --rw=read \
        --iomem=mmapshared
    check "sync=dsync: the file opened O_DSYNC" traced openat 'O_RDWR|O_DSYNC' --rw=write --sync=dsync
    check "sync=1: O_SYNC" traced openat 'O_RDWR|O_SYNC' --rw=write --sync=1
    check "sync's default: neither" untraced openat 'O_D\?SYNC' --rw=write
    # a time-based pass starts cold as fio's: a job wrapping around its file evicts it each
    # pass; a random one without the map never ends a pass in fio, so its cache stays warm
    dontneed() {
        strace -f -qq -e trace=fadvise64 "$SB_BIN" io --quiet --output-format=terse --filename="$T/f" \
            --size=256k --bs=4k --time_based --runtime=1 "$@" 2>&1 >/dev/null | grep -c FADV_DONTNEED
    }
    n_map=$(dontneed --rw=randread) n_nomap=$(dontneed --rw=randread --norandommap)
    n_zipf=$(dontneed --rw=randread --random_distribution=zipf:1.2)
    check "time-based randread evicts at each pass ($n_map), with norandommap once ($n_nomap)" \
        test "$n_map" -gt 3 -a "$n_nomap" -le 2
    check "a non-uniform distribution has no map either, as fio's ($n_zipf)" test "$n_zipf" -le 2
    n_ba=$(dontneed --rw=randread --ba=8k) n_ba4=$(dontneed --rw=randread --ba=4k)
    check "nor a blockalign other than bs, as fio's init.c ($n_ba); ba=bs keeps it ($n_ba4)" \
        test "$n_ba" -le 2 -a "$n_ba4" -gt 3
else
    echo "ok # SKIP no strace: fadvise_hint, mem and sync are not traced"
fi
if [ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)" = 0 ]; then
    check_exit "mem=mmaphuge without huge pages: exit 1" 1 io --filename="$T/f" --rw=read --size=1m --mem=mmaphuge
    check_one_line "... naming huge pages" "nr_hugepages"
fi
check_exit "clocksource=clock_gettime runs" 0 io --filename="$T/f" --rw=read --size=1m --clocksource=clock_gettime
check_exit "clocksource=cpu runs (test_fio_clock.sh shows what it changes)" 0 io --filename="$T/f" \
    --rw=read --size=1m --clocksource=cpu
check_exit "sqthread_poll with psync: exit 2" 2 io --filename="$T/f" --rw=read --size=1m --sqthread_poll=1
check_one_line "... naming io_uring" "io_uring"
check_exit "nowait with posixaio: exit 2" 2 io --filename="$T/f" --rw=read --size=1m --ioengine=posixaio --nowait=1
if io --filename="$T/f" --size=64k --ioengine=io_uring --rw=read >/dev/null 2>&1; then
    check_exit "io_uring with sqthread_poll runs" 0 io --filename="$T/f" --rw=randread --size=1m \
        --ioengine=io_uring --iodepth=8 --sqthread_poll=1 --output-format=json
    check "... every block read" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 1048576
fi
# ba, allrandrepeat, unique_filename: accepted as fio's
check_exit "ba=8k (blockalign)" 0 io --filename="$T/f" --rw=randread --bs=4k --ba=8k --size=1m \
    --write_lat_log="$T/ba" --log_offset=1
check "... every offset a multiple of 8k" sh -c "test -s '$T/ba_lat.1.log' && ! awk -F', ' '\$5 % 8192' '$T/ba_lat.1.log' | grep -q ."
for k in 1 2; do
    check_exit "allrandrepeat=1 with randrepeat=0 (run $k)" 0 io --filename="$T/f" --rw=randread --size=256k \
        --randrepeat=0 --allrandrepeat=1 --write_lat_log="$T/r$k" --log_offset=1 --output-format=terse
done
check "... two runs, the same offsets" bash -c "test -s '$T/r1_lat.1.log' && cmp -s <(cut -d, -f5 '$T/r1_lat.1.log') <(cut -d, -f5 '$T/r2_lat.1.log')"
io --filename="$T/f" --rw=randread --size=256k --randrepeat=0 --write_lat_log="$T/r3" --log_offset=1 \
    --output-format=terse >/dev/null 2>&1
check "... without it, randrepeat=0 draws new ones" bash -c "! cmp -s <(cut -d, -f5 '$T/r1_lat.1.log') <(cut -d, -f5 '$T/r3_lat.1.log')"
check_exit "iodepth=4096 (fio has no bound at 1024)" 0 io --filename="$T/f" --rw=randread --size=1m \
    --ioengine=posixaio --iodepth=4096 --output-format=terse
# buffer_pattern: the writes carry it and nothing else, as fio's (compared byte for byte)
rm -f "$T/bp"
check_exit "buffer_pattern=0xdeadbeef" 0 io --filename="$T/bp" --rw=write --bs=4k --size=64k \
    --buffer_pattern=0xdeadbeef --output-format=terse
check "... every byte the pattern" test "$(od -An -tx1 -v "$T/bp" | tr -d ' \n' | sed 's/deadbeef//g')" = ""
if command -v fio >/dev/null; then
    rm -f "$T/fbp"
    fio --name=b --filename="$T/fbp" --rw=write --bs=4k --size=64k --buffer_pattern='"abc"' \
        --output-format=terse >/dev/null 2>&1
    rm -f "$T/bp"
    io --filename="$T/bp" --rw=write --bs=4k --size=64k --buffer_pattern='"abc"' --output-format=terse >/dev/null 2>&1
    check "buffer_pattern=\"abc\": the file is fio's, byte for byte" cmp -s "$T/bp" "$T/fbp"
fi
# per_job_logs=0: one log per kind for the job's threads, their lines together
(cd "$T" && "$SB_BIN" io --quiet --filename="$T/f" --rw=randread --size=256k --numjobs=2 --thread \
    --write_lat_log=pj --per_job_logs=0 --output-format=terse >/dev/null 2>&1)
check "per_job_logs=0: one pj_lat.log, no pj_lat.N.log" test -s "$T/pj_lat.log" -a ! -e "$T/pj_lat.1.log"
check "... holding both threads' 64 I/Os each" test "$(wc -l <"$T/pj_lat.log")" = 128
# rate_iops=3k is 3000, as fio reads it
check_exit "rate_iops=3k" 0 io --filename="$T/f" --rw=randread --size=4m --rate_iops=3k --runtime=1 \
    --time_based --output-format=json
iops=$(jqv '.jobs[0].read.iops | floor' "$T/out")
# the cap is the behaviour (never above 3000; far above 3, which '3' would have been)
check "... at most 3000 IOPS, and thousands, not 3 ($iops)" test "${iops:-0}" -gt 100 -a "${iops:-0}" -le 3300
# size=N% of a file an earlier phase makes: resolved when the job starts
printf '[w]\nfilename=%s\nrw=write\nsize=2m\n[r]\nstonewall\nfilename=%s\nrw=read\nsize=25%%\n' \
    "$T/made" "$T/made" >"$T/pct.fio"
rm -f "$T/made"
check_exit "size=25% of a file the job file's first phase makes" 0 "$SB_BIN" io --quiet \
    --output-format=json "$T/pct.fio"
check "... reads 512 KiB" test "$(jq -r '.jobs[1].read.io_bytes' "$T/out" 2>/dev/null)" = 524288
# durations with an upper-case unit, as fio reads them; offset=0z
check_exit "runtime=1S (fio reads units in any case)" 0 io --filename="$T/f" --rw=read --size=4m \
    --runtime=1S --time_based --output-format=json
# a second, not a millisecond nor a minute (a bound far from both, not a timing)
check "... ran about a second" test "$(jqv '.jobs[0].job_runtime' "$T/out")" -ge 500 -a \
    "$(jqv '.jobs[0].job_runtime' "$T/out")" -le 20000
check_exit "offset=0z: the first zone's start" 0 io --filename="$T/f" --rw=read --zonemode=zbd --zonesize=1m \
    --offset=0z --size=1z --output-format=terse
check_exit "size=0z: exit 2" 2 io --filename="$T/f" --rw=read --zonemode=zbd --zonesize=1m --size=0z
# a job file without filename or directory: the current directory, nothing left there
mkdir -p "$T/cwd"
printf '[global]\nsize=1m\nunique_filename=1\n[w]\nrw=write\n[r]\nstonewall\nrw=read\n' >"$T/cwd/j.fio"
check_exit "a job file without filename or directory runs" 0 sh -c "cd '$T/cwd' && '$SB_BIN' io --quiet j.fio"
check "... and leaves only the job file" test "$(ls -A "$T/cwd")" = j.fio
# sizes as fio 3.33's parser reads them: "100%%" is 100%, "1024.0M" is 1024 bytes (its
# number stops at the '.'; the unit is not applied)
check_exit "size=100%% (a doubled percent sign)" 0 io --filename="$T/f" --rw=read --size=100%% --output-format=json
check "... reads the whole 4 MiB" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 4194304
rm -f "$T/dec"
check_exit "size=1024.0M, as fio reads it" 0 io --filename="$T/dec" --rw=write --size=1024.0M --bs=512 \
    --output-format=json
check "... writes 1024 bytes, as fio 3.33 does" test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 1024
# below bs, as with bs=4k: fio's --parse-only takes the file, its run fails (size too small)
printf '[d]
filename=%s
rw=write
size=1024.0M
bs=4k
' "$T/dec" >"$T/dec.fio"
check_exit "size=1024.0M bs=4k --parse-only: accepted, as fio's" 0 "$SB_BIN" io --parse-only "$T/dec.fio"
check_exit "... its run fails: exit 1" 1 "$SB_BIN" io --quiet --output-format=json "$T/dec.fio"
check "... naming the block size" grep -q "smaller than the block size" "$T/err"
check_exit "io_size=2.5k (another size option, read the same way)" 0 io --filename="$T/f" --rw=read \
    --size=1m --io_size=2.5k --bs=512 --output-format=json
check "... 2 bytes: one 512-byte I/O, as fio 3.33 does" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 512
# bs below 512 through the page cache (fio's bs=448); with direct=1 whole logical blocks still
rm -f "$T/b448"
check_exit "bs=448 buffered" 0 io --filename="$T/b448" --rw=randwrite --bs=448 --size=448k --output-format=json
check "... 1024 I/Os of 448 bytes" test "$(jqv '.jobs[0].write.total_ios' "$T/out")" = 1024 -a \
    "$(stat -c %s "$T/b448")" = 458752
check_exit "bs=448 with direct=1: exit 2" 2 io --filename="$T/f" --rw=read --bs=448 --size=448k --direct=1
check_one_line "... one line naming the logical block size" "logical block size"
# bssplit's percentages as fio reads them: "1k/" has none (the sizes share what is left),
# "100k" is 100 (atoi's leading digits), a trailing ':' ends the list
bssplit_ios() {
    io --filename="$T/bsp" --rw=write --size=1m --bssplit="$1" --output-format=json >"$T/out" 2>"$T/err" &&
        jqv '.jobs[0].write.total_ios' "$T/out"
}
n=$(bssplit_ios '1k/:2k/:')
check "bssplit=1k/:2k/: both sizes written ($n I/Os for 1 MiB: between 512 and 1024)" \
    test "${n:-0}" -gt 512 -a "${n:-0}" -lt 1024
n=$(bssplit_ios '1k/100k:2k/')
check "bssplit=1k/100k:2k/: 100% 1k, as fio's atoi reads '100k' ($n I/Os)" test "${n:-0}" = 1024
# time_based without a runtime: fio 3.33 runs the job through its size once, with a warning
printf '[t]\nfilename=%s\nrw=read\nsize=64k\ntime_based=1\n' "$T/f" >"$T/tb.fio"
check_exit "time_based without a runtime runs" 0 timeout 60 "$SB_BIN" io --quiet --output-format=json "$T/tb.fio"
check "... once through its 64 KiB, as fio's" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 65536
check "... saying why" grep -q "time_based without a runtime" "$T/err"
# a section header without its ']': fio drops the line's last character as though it were one
printf '[bs=64K\nfilename=%s\nrw=read\nsize=64k\n' "$T/f" >"$T/sec.fio"
check_exit "'[bs=64K' (no ']')" 0 "$SB_BIN" io --quiet --output-format=json "$T/sec.fio"
check "... is the job 'bs=64', as fio names it" test "$(jqv '.jobs[0].jobname' "$T/out")" = bs=64
# a boolean is the number it starts with (fio 3.33: per_job_logs=0/1 is 0, 2 is refused)
printf '[p]\nfilename=%s\nrw=read\nsize=32k\nbs=4k\nnumjobs=2\nwrite_lat_log=%s/pb\nper_job_logs=0/1\n' \
    "$T/f" "$T" >"$T/pb.fio"
check_exit "per_job_logs=0/1" 0 "$SB_BIN" io --quiet --output-format=terse "$T/pb.fio"
check "... is 0: one pb_lat.log for both threads" test -s "$T/pb_lat.log" -a ! -e "$T/pb_lat.1.log"
check_exit "per_job_logs=2: exit 2" 2 io --filename="$T/f" --rw=read --size=32k --per_job_logs=2
# filesize with more than one '-': the first piece is LO, the last HI, as fio 3.33 reads it
mkdir -p "$T/fsz"
printf '[z]\ndirectory=%s\nnrfiles=4\nrw=write\nbs=4k\nfilesize=8k-1k/2k-8k\n' "$T/fsz" >"$T/fsz.fio"
check_exit "filesize=8k-1k/2k-8k" 0 "$SB_BIN" io --quiet --output-format=json "$T/fsz.fio"
check "... is 8k-8k: four files of 8 KiB written" test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 32768
# cpus_allowed naming a CPU this machine lacks: fio's --parse-only takes it, its run fails
far=$(( $(getconf _NPROCESSORS_CONF) + 17 ))
printf '[c]\nfilename=%s\nrw=read\nsize=64k\ncpus_allowed=0,%s\n' "$T/f" "$far" >"$T/cpu.fio"
check_exit "cpus_allowed=0,$far --parse-only: accepted, as fio's" 0 "$SB_BIN" io --parse-only "$T/cpu.fio"
check_exit "... the run fails: exit 1" 1 "$SB_BIN" io --quiet --output-format=json "$T/cpu.fio"
check_one_line "... one line naming the CPU" "CPU $far"
check_exit "cpus_allowed=0-x (not a list): exit 2 still" 2 io --filename="$T/f" --rw=read --size=64k --cpus_allowed=0-x
# the rados/rbd engines' options: refused in one line naming why (a Ceph cluster)
for k in pool clientname; do
    printf '[r]\nioengine=rbd\n%s=x\nfilename=%s\nsize=64k\n' "$k" "$T/f" >"$T/ceph.fio"
    check_exit "$k= (fio's rbd/rados engines): exit 2" 2 "$SB_BIN" io --parse-only "$T/ceph.fio"
    check_one_line "... one line naming Ceph" "Ceph cluster"
done
# values fio's --parse-only takes (it reads them when the job starts) and its run refuses:
# the same here, the run failing in one line (exit 1)
for kv in wait_for=1 numa_mem_policy=1 replay_skip=1; do
    printf '[a]\nfilename=%s\nrw=read\nsize=64k\n%s\n' "$T/f" "$kv" >"$T/rf.fio"
    check_exit "$kv --parse-only: accepted, as fio's" 0 "$SB_BIN" io --parse-only "$T/rf.fio"
    check_exit "... its run fails: exit 1" 1 "$SB_BIN" io --quiet --output-format=json "$T/rf.fio"
    check_one_line "... in one line naming it" "${kv%%=*}"
done
# steadystate without ss_dur: no check (fio's ss_dur defaults to 0, which turns it off),
# said on stderr; ss_dur alone: fio's default criterion, iops_slope:0.01%
printf '[s]\nfilename=%s\nrw=read\nsize=64k\nsteadystate=iops_slope:0.01%%\n' "$T/f" >"$T/ss.fio"
check_exit "steadystate without ss_dur runs" 0 "$SB_BIN" io --quiet --output-format=json "$T/ss.fio"
check "... once through its size, no check" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 65536
check "... saying so" grep -q "no steady-state check" "$T/err"
printf '[s]\nfilename=%s\nrw=read\nsize=64k\nss_dur=2\nruntime=3\n' "$T/f" >"$T/sd.fio"
check_exit "ss_dur alone runs" 0 "$SB_BIN" io "$T/sd.fio"
check "... checking by fio's default criterion" grep -q "limit iops_slope:0.01%" "$T/out"
# iomem_align=25: the buffers start 25 bytes past a page, as fio's (the read's buffer
# address, as strace shows it raw, ends in 0x019)
if [ $have_strace = 1 ]; then
    addr() {
        strace -f -qq -e trace=pread64 -e raw=pread64 "$SB_BIN" io --quiet --output-format=terse \
            --filename="$T/f" --rw=read --size=16k --bs=4k "$@" 2>&1 >/dev/null |
            sed -n 's/.*pread64(0x[0-9a-f]*, 0x\([0-9a-f]*\), 0x1000, .*/\1/p' | head -1
    }
    a25=$(addr --iomem_align=25) a0=$(addr)
    check "iomem_align=25: buffer at ...${a25: -3} (page + 25 = 019)" test "${a25: -3}" = 019
    check "... without it at a page (${a0: -3})" test "${a0: -3}" = 000
else
    ok "# SKIP iomem_align: no strace"
fi
# ... and every buffer-filling and verifying path takes such a buffer (a corpus file with
# iomem_align=25, bs=512 and verify=crc32c once crashed on an aligned vector store)
for o in --verify=crc32c --verify=sha256 "--verify=pattern --verify_pattern=0xdeadbeef" \
    --buffer_compress_percentage=50 --dedupe_percentage=50 --buffer_pattern=0xaa55; do
    # shellcheck disable=SC2086
    check_exit "iomem_align=25 bs=512 $o runs" 0 io --filename="$T/ma" --rw=randwrite --size=64k --bs=512 \
        --ioengine=libaio --iodepth=2 --iomem_align=25 $o
done
# percentage_random=0: a random job's offsets all sequential, as fio's (its write_iolog
# lists 0, 4096, 8192, ...), so verify is taken as on a sequential job
rm -f "$T/pr"
check_exit "randwrite percentage_random=0 verify=crc32c runs" 0 io --filename="$T/pr" --rw=randwrite \
    --percentage_random=0 --size=64k --bs=4k --verify=crc32c --write_iolog="$T/pr.log" --output-format=json
check "... its writes at 0, 4096, 8192, ... in order" test "$(awk '$3=="write"{printf "%s ", $4}' "$T/pr.log")" = \
    "$(seq 0 4096 61440 | tr '\n' ' ')"
# percentage_random=50 with verify: offsets half sequential, some blocks written twice; the
# read-back checks each block's last write once (fio, with its random map, also checks the
# overwritten writes and fails; with norandommap it reads each block once, as here)
rm -f "$T/pr" "$T/pr.log"
check_exit "randwrite percentage_random=50 verify=crc32c runs and verifies" 0 io --filename="$T/pr" \
    --rw=randwrite --percentage_random=50 --size=1m --bs=4k --verify=crc32c --write_iolog="$T/pr.log" \
    --output-format=json
check "... one verify read per block written ($(jqv '.jobs[0].read.total_ios' "$T/out") reads)" test \
    "$(jqv '.jobs[0].read.total_ios' "$T/out")" = "$(awk '$3=="write"{print $4}' "$T/pr.log" | sort -u | wc -l)"
check "... some blocks written twice (the sequential part)" test \
    "$(awk '$3=="write"{print $4}' "$T/pr.log" | sort -u | wc -l)" -lt 256
check_exit "percentage_random with verify and drawn sizes: exit 2" 2 io --filename="$T/pr" --rw=randwrite \
    --percentage_random=50 --size=1m --bsrange=4k-16k --verify=crc32c
# "job options" and "global options" name each option as fio's JSON does, by its own name
# (blocksize= is bs, readwrite= is rw), from a job file and from the command line alike
printf '[global]\nblocksize=8k\n[a]\nfilename=%s\nreadwrite=read\nsize=64k\n' "$T/f" >"$T/al.fio"
check_exit "aliases in a job file run" 0 "$SB_BIN" io --quiet --output-format=json "$T/al.fio"
check "... listed as bs and rw ($(jq -c '[."global options", .jobs[0]."job options"]' "$T/out"))" \
    test "$(jq -r '."global options".bs + " " + .jobs[0]."job options".rw' "$T/out")" = "8k read"
check_exit "aliases on the command line" 0 io --name=a --filename="$T/f" --readwrite=read --blocksize=8k \
    --size=64k --output-format=json
check "... listed as bs and rw too" test "$(jqv '.jobs[0]."job options" | "\(.bs) \(.rw)"' "$T/out")" = "8k read"
# stonewall and new_group with a value are listed too (a bare one is not, as fio's JSON)
printf '[a]\nfilename=%s\nrw=read\nsize=64k\n[b]\nstonewall=1\nfilename=%s\nrw=read\nsize=64k\n' "$T/f" "$T/f" >"$T/sw.fio"
check_exit "stonewall=1 in a job section runs" 0 "$SB_BIN" io --quiet --output-format=json "$T/sw.fio"
check "... listed among its job options" test "$(jq -r '.jobs[1]."job options".stonewall' "$T/out")" = 1
check "... and in --showcmd's line, as fio's (--name=b --stonewall=1)" \
    sh -c "'$SB_BIN' io --showcmd '$T/sw.fio' | grep -q -- '--name=b --stonewall=1 '"
if command -v fio >/dev/null; then
    fio --output-format=json "$T/al.fio" >"$T/al.json" 2>/dev/null
    check "... as fio 3.33's JSON for the same file" \
        test "$(jq -r '."global options".bs + " " + .jobs[0]."job options".rw' "$T/al.json")" = "8k read"
fi
# fio's canonical names where storbench's table once had another (ba, iodepth_batch), and a
# job's description repeated as "desc" at the end of its object, as fio's JSON does
printf '[a]\ndescription=two words\nfilename=%s\nrw=randread\nsize=64k\nblockalign=8k\niodepth_batch_submit=1\n' "$T/f" >"$T/ds.fio"
check_exit "description, blockalign, iodepth_batch_submit in a job file run" 0 "$SB_BIN" io --quiet --output-format=json "$T/ds.fio"
check "... desc is the description, the options listed as ba and iodepth_batch ($(jq -c '.jobs[0]."job options"' "$T/out"))" \
    test "$(jq -r '.jobs[0] | "\(.desc)|\(."job options".ba)|\(."job options".iodepth_batch)"' "$T/out")" = "two words|8k|1"
if command -v fio >/dev/null; then
    fio --output-format=json "$T/ds.fio" >"$T/ds.json" 2>/dev/null
    check "... as fio 3.33's JSON for the same file" \
        test "$(jq -r '.jobs[0] | "\(.desc)|\(."job options".ba)|\(."job options".iodepth_batch)"' "$T/ds.json")" = "two words|8k|1"
fi
# a description given in [global] is every later job's (fio's options inherit), unless the
# job gives its own; a later [global] changes only the jobs after it. It is not among the
# job's own options, and fio prints it in all three formats: "desc", a "Description  :"
# line under the job's header, the terse line's last field
printf '[global]\ndescription=from global\nfilename=%s\nrw=read\nsize=64k\n[a]\n[b]\ndescription=its own\n[global]\ndescription=later\n[c]\n' \
    "$T/f" >"$T/dg.fio"
descs() { jq -r '[.jobs[] | "\(.jobname)=\(.desc // "-"):\(."job options".description // "-")"] | join(" ")' "$1"; }
check_exit "description= in [global] runs" 0 "$SB_BIN" io --quiet --output-format=json "$T/dg.fio"
check "... each job's desc is its own or its [global]'s ($(descs "$T/out"))" \
    test "$(descs "$T/out")" = "a=from global:- b=its own:its own c=later:-"
check "... the normal output's Description line" \
    sh -c "'$SB_BIN' io --quiet '$T/dg.fio' | grep -c '^  Description  : \[from global\]$' | grep -qx 1"
check "... the terse line's last field" \
    sh -c "'$SB_BIN' io --quiet --output-format=terse '$T/dg.fio' | awk -F';' '{print \$NF}' | tr '\n' ' ' | grep -qx 'from global its own later '"
if command -v fio >/dev/null; then
    fio --output-format=json "$T/dg.fio" >"$T/dg.json" 2>/dev/null
    check "... as fio 3.33's JSON for the same file ($(descs "$T/dg.json"))" \
        test "$(descs "$T/dg.json")" = "a=from global:- b=its own:its own c=later:-"
fi
# bsrange and bssplit together: fio's callbacks fill the same per-direction min and max,
# so the later one decides (rinetd-fio.cfg gives bsrange=1k-4k,8k-8k, then bssplit). Each
# job's sizes per direction from its write_iolog, fio's beside storbench's
sizes() { # LOG DIR: the sizes of DIR's I/Os, sorted, unique
    awk -v d="$2" '$3 == d {print $5}' "$1" | sort -n | uniq | tr '\n' ' '
}
bsjob() { # NAME OPTIONS...: a job file of rw=rw on one file with write_iolog
    local n=$1
    shift
    { printf '[%s]\nfilename=%s/bs_%s\nrw=rw\nsize=1m\nwrite_iolog=%s/bs_%s.log\n' "$n" "$T" "$n" "$T" "$n"
      printf '%s\n' "$@"; } >"$T/bs_$n.fio"
}
bsjob range 'bsrange=1k-4k,8k-8k'
bsjob first 'bsrange=1k-4k,8k-8k' 'bssplit=4k/30:8k/40:16k/30'
bsjob last 'bssplit=4k/30:8k/40:16k/30' 'bsrange=1k-4k,8k-8k'
for n in range first last; do
    check_exit "bsrange/bssplit ($n) runs" 0 "$SB_BIN" io --quiet --output-format=terse "$T/bs_$n.fio"
done
check "bsrange=1k-4k,8k-8k: reads of 1k .. 4k in 1k steps, writes 8k" \
    test "$(sizes "$T/bs_range.log" read)|$(sizes "$T/bs_range.log" write)" = "1024 2048 3072 4096 |8192 "
check "bsrange, then bssplit: the split's sizes both ways" \
    test "$(sizes "$T/bs_first.log" read)|$(sizes "$T/bs_first.log" write)" = "4096 8192 16384 |4096 8192 16384 "
check "bssplit, then bsrange: the split held in each direction's range (4k reads, 8k writes)" \
    test "$(sizes "$T/bs_last.log" read)|$(sizes "$T/bs_last.log" write)" = "4096 |8192 "
if command -v fio >/dev/null; then
    for n in range first last; do
        sed "s|write_iolog=.*|write_iolog=$T/fio_$n.log|; s|filename=.*|filename=$T/fio_$n|" \
            "$T/bs_$n.fio" >"$T/fio_$n.fio"
        (cd "$T" && fio --output-format=terse "$T/fio_$n.fio" >/dev/null 2>&1)
        check "... fio's sizes for $n are the same" \
            test "$(sizes "$T/fio_$n.log" read)|$(sizes "$T/fio_$n.log" write)" = \
            "$(sizes "$T/bs_$n.log" read)|$(sizes "$T/bs_$n.log" write)"
    done
fi
# a sequential pass of drawn sizes is size bytes, as fio's (its last I/O a size that fits)
for o in --bssplit=4k/30:8k/40:16k/30 --bsrange=4k-64k; do
    rm -f "$T/sq"
    check_exit "rw=write $o size=1m runs" 0 io --filename="$T/sq" --rw=write --size=1m "$o" --output-format=json
    check "... writes 1 MiB, not more ($(jqv '.jobs[0].write.io_bytes' "$T/out"))" \
        test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 1048576
    if command -v fio >/dev/null; then
        rm -f "$T/sqf"
        fio --name=sq --filename="$T/sqf" --rw=write --size=1m "$o" --output-format=json >"$T/sq.json" 2>/dev/null
        check "... as fio's" test "$(jqv '.jobs[0].write.io_bytes' "$T/sq.json")" = 1048576
    fi
done
# fio keeps thread, time_based, group_reporting, stonewall, ... as numbers (its STR_SET):
# any whole number but 0 turns them on (thread=2 in a job file; fio 3.33 takes it)
printf '[global]\nfilename=%s\nsize=64k\nbs=4k\nrw=read\nnumjobs=2\nruntime=1\n[j]\nthread=2\ngroup_reporting=2\ntime_based=0x5\n[k]\nnumjobs=1\nstonewall=3\nnew_group=2\nnorandommap=7\n' \
    "$T/f" >"$T/set.fio"
check_exit "thread=2 group_reporting=2 time_based=0x5 stonewall=3 run" 0 "$SB_BIN" io --quiet \
    --output-format=json "$T/set.fio"
check "... j reported as one group, k as another (2 reports, $(jqv '.jobs | length' "$T/out"))" \
    test "$(jqv '.jobs | length' "$T/out")" = 2
check "... j time-based: past its 64 KiB in the second" test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" -gt 65536
check_exit "thread=x: exit 2" 2 io --filename="$T/f" --rw=read --size=64k --thread=x
# an empty name in a file list is skipped, as fio's: filename=D: is the file D, a::b: a and b
mkdir -p "$T/fl"
printf '[w]\nfilename=D:\nsize=8k\nrw=write\n[v]\nfilename=a::b:\nsize=8k\nrw=write\n' >"$T/fl/fl.fio"
check_exit "filename=D: and filename=a::b: run" 0 sh -c "cd '$T/fl' && '$SB_BIN' io --quiet fl.fio"
check "... writing D, a and b ($(cd "$T/fl" && LC_ALL=C ls | tr '\n' ' '))" \
    test "$(cd "$T/fl" && LC_ALL=C ls | tr '\n' ' ')" = "D a b fl.fio "
check_exit "filename=: (no name at all): exit 2" 2 io --filename=: --rw=read --size=8k
check_one_line "... one line" "names no file"
# a job file of [global] only: fio's --parse-only takes it, its run fails ("No job(s)
# defined", exit 1); the same here
printf '[global]\nsize=8k\nrw=write\n' >"$T/g.fio"
check_exit "a [global]-only file: --parse-only takes it" 0 "$SB_BIN" io --parse-only "$T/g.fio"
check_exit "... its run fails: exit 1" 1 "$SB_BIN" io "$T/g.fio"
check_one_line "... one line" "no job to run"
# offset_increment=Nz counts zones, as fio's: numjobs=2 offset_increment=2z, each job one
# zone: the file's zones 0 and 2 written, 1 and 3 left holes (fio 3.33 writes the same)
rm -f "$T/oi"
truncate -s 4M "$T/oi"
check_exit "zonemode=zbd offset_increment=2z numjobs=2 runs" 0 io --filename="$T/oi" --rw=write --bs=64k \
    --zonemode=zbd --zonesize=1m --size=1z --numjobs=2 --offset_increment=2z --fallocate=none
extents() {
    python3 -c "
import os
fd = os.open('$1', os.O_RDONLY); end = os.fstat(fd).st_size; o = 0; r = []
while o < end:
    try: s = os.lseek(fd, o, os.SEEK_DATA)
    except OSError: break
    e = os.lseek(fd, s, os.SEEK_HOLE); r.append('%d-%dK' % (s // 1024, e // 1024)); o = e
print(' '.join(r))"
}
check "... zones 0 and 2 written ($(extents "$T/oi"))" test "$(extents "$T/oi")" = "0-1024K 2048-3072K"
check_exit "offset_increment=2z without a zone size: exit 2" 2 io --filename="$T/oi" --rw=write --size=1m \
    --offset_increment=2z
check_one_line "... one line" "counts zones"
# fill_device time based (a precondition job run with a runtime): the ENOSPC that fills the
# device ends the job at once, as fio's (fio 3.33: 2 MiB on a 2 MiB tmpfs, no error), and
# loops=2 makes no second pass over a full device
mkdir -p "$T/mnt"
if mount -t tmpfs -o size=2m tmpfs "$T/mnt" 2>/dev/null; then
    trap 'umount "$T/mnt" 2>/dev/null; rm -rf "$T"' EXIT
    for extra in "--time_based --runtime=30" "--loops=2"; do
        rm -f "$T/mnt/fill"
        check_exit "fill_device=1 $extra on a 2 MiB tmpfs runs" 0 timeout 25 "$SB_BIN" io --output-format=json \
            --name=f --filename="$T/mnt/fill" --rw=write --bs=64k --fill_device=1 $extra
        check "... writes its 2 MiB once and ends, error 0 ($(jqv '.jobs[0] | "\(.write.io_bytes) \(.error)"' "$T/out"))" \
            test "$(jqv '.jobs[0] | "\(.write.io_bytes) \(.error)"' "$T/out")" = "2097152 0"
    done
    umount "$T/mnt"
else
    ok "# SKIP fill_device on a small tmpfs: cannot mount one here (needs root)"
fi
# fill_device with a size= under the room: fio writes that size, its loops as any job's
# (a precondition file's size=16m with loops=2: 2 passes of 16m, not the device)
rm -f "$T/fs"
check_exit "fill_device=1 size=1m loops=2 runs" 0 io --output-format=json --name=f --filename="$T/fs" \
    --rw=write --bs=64k --size=1m --fill_device=1 --loops=2
check "... 2 passes of 1 MiB: 32 writes, a 1 MiB file ($(jqv '.jobs[0].write.total_ios' "$T/out"), $(stat -c %s "$T/fs"))" \
    test "$(jqv '.jobs[0].write.total_ios' "$T/out") $(stat -c %s "$T/fs")" = "32 1048576"
if command -v fio >/dev/null; then
    rm -f "$T/fs"
    fio --output-format=json --name=f --filename="$T/fs" --rw=write --bs=64k --size=1m --fill_device=1 \
        --loops=2 2>/dev/null >"$T/fs.json"
    check "... as fio 3.33's" test "$(jq '.jobs[0].write.total_ios' "$T/fs.json") $(stat -c %s "$T/fs")" = "32 1048576"
fi
check_exit "fill_device with a random write job is still refused" 2 io --filename="$T/f" --rw=randwrite --fill_device=1
check_one_line "... one line" "fill_device"
# dev4's job files (tests/data/fio-wild/README.md, "Fifth batch"). bssplit without
# bs_unaligned: each size rounded down to a multiple of the split's smallest, as fio's
# get_next_buflen (fio 3.33, size=1m bssplit=4k/50:6k/50: 256 writes of 4096, none of 6144)
check_exit "bssplit=4k/50:6k/50 runs" 0 io --name=j --filename="$T/bsu" --rw=write --size=1m \
    --bssplit=4k/50:6k/50 --write_iolog="$T/bsu.log" --output-format=terse
check "... every write 4096 bytes, as fio's ($(awk '$3=="write"{print $5}' "$T/bsu.log" | sort | uniq -c | xargs))" \
    test "$(awk '$3=="write"{print $5}' "$T/bsu.log" | sort -u | xargs)" = 4096
# bs_unaligned with bssplit (kofemann's chaotic-write): taken, the split's sizes as given
# (multiples of its smallest, so fio's run is the same either way), with a warning saying so
check_exit "bs_unaligned with bssplit=4k/50:8k/50 runs" 0 io --name=j --filename="$T/bsu" --rw=write \
    --size=1m --bssplit=4k/50:8k/50 --bs_unaligned=1 --write_iolog="$T/bsu2.log" --output-format=terse
check "... writes of 4096 and 8192 ($(awk '$3=="write"{print $5}' "$T/bsu2.log" | sort | uniq -c | xargs))" \
    test "$(awk '$3=="write"{print $5}' "$T/bsu2.log" | sort -u | xargs)" = "4096 8192"
check "... one warning: it has no effect there" grep -q "bs_unaligned has no effect" "$T/err"
check_exit "bs_unaligned with one block size is still refused" 2 io --filename="$T/bsu" --rw=write \
    --size=1m --bs_unaligned=1
check_one_line "... one line" "bs_unaligned"
# runtime=300d (stonet-research's randread_ghost): fio's days; 0.00001d is 0.864 s
check_exit "runtime=0.00001d time_based: a run that ends" 0 timeout 30 "$SB_BIN" io --quiet --filename="$T/bsu" \
    --rw=read --size=1m --time_based --runtime=0.00001d --output-format=terse
check_exit "runtime=1x: exit 2" 2 io --filename="$T/bsu" --rw=read --size=1m --runtime=1x
check_one_line "... one line" "is not a duration"
# zonemode=zbd on a file that is not a zoned device, without zonesize (hanze5's size=1z on
# an absent /dev/nvme0n1): fio 3.33's --parse-only takes it, its run stops before any I/O
# ("Specifying the zone size is mandatory"), exit 1, and creates no file
printf '[global]\nzonemode=zbd\nsize=1z\nfilename=%s\n[w]\nbs=4k\nrw=write\noffset=0z\n' "$T/zbdf" >"$T/zbd.fio"
check_exit "size=1z under zonemode=zbd without zones: --parse-only takes it" 0 io --parse-only "$T/zbd.fio"
check_exit "... its run fails before any I/O: exit 1" 1 io "$T/zbd.fio"
check_one_line "... one line" "not a zoned device here: give zonesize"
check "... and makes no file" test ! -e "$T/zbdf"
# bs above 64 MiB (dev3's bs=256m): one block size up to the most one read or write moves
# (2 GiB - 4 KiB), as fio sets no bound; buffers (iodepth x bs) larger than the memory
# available fail the run before any I/O (fio 3.33 allocates them and its reads then fail,
# "Bad address", exit 1)
check_exit "bs=80m (above 64 MiB) runs" 0 io --name=big --filename="$T/big" --rw=write --bs=80m --size=80m \
    --output-format=json
check "... one write of 80 MiB ($(jqv '.jobs[0].write | "\(.total_ios) \(.io_bytes)"' "$T/out"))" \
    test "$(jqv '.jobs[0].write | "\(.total_ios) \(.io_bytes)"' "$T/out")" = "1 83886080"
rm -f "$T/big"
check_exit "bs=2000m iodepth=1024 (2 TB of buffers): the run fails, exit 1" 1 io --name=big --filename="$T/big" \
    --rw=read --bs=2000m --size=2000m --ioengine=libaio --iodepth=1024 --fallocate=none
check_one_line "... one line" "more than the"
rm -f "$T/big"
check_exit "bs=3g: exit 2" 2 io --filename="$T/big" --rw=read --bs=3g --size=3g
check_one_line "... one line" "block size"
# filesize=4m:6m (kofemann's seq-write): fio splits a value at ',', else ':', else '-'
# (parse.c's handle_option), so it is 4m-6m: each file's size drawn in the range
mkdir -p "$T/fsc"
in_t() { (cd "$T" && "$@"); } # exec_postrun's output file lands in the working directory
check_exit "filesize=16k:256k runs" 0 in_t io --name=fc --directory="$T/fsc" --nrfiles=8 --filesize=16k:256k \
    --rw=write --output-format=json --exec_postrun="stat -c %s $T/fsc/storbench-*/*"
check "... 8 files of sizes in 16k .. 256k, not all alike ($(tr '\n' ' ' <"$T/fc.postrun.txt"))" \
    awk '{ if ($1 < 16384 || $1 > 262144) bad = 1; u[$1] = 1; n++ } END { k = 0; for (x in u) k++; exit !(n == 8 && !bad && k > 1) }' "$T/fc.postrun.txt"
check_exit "filesize=16k:8k (HI below LO): exit 2" 2 io --name=fc --directory="$T/fsc" --filesize=16k:8k --rw=write
check_one_line "... one line" "filesize"
# threads=N (heldout4's fabricattachedmemory file) is not fio's thread switch: fio takes it as the
# tiobench profile's thread count, listed under "threads" in its job options, and it changes nothing
check_exit "threads=1 runs" 0 io --name=th --filename="$T/th" --size=64k --rw=read --threads=1 --output-format=json
check "... listed as \"threads\" in the job options, as fio's ($(jqv '.jobs[0]["job options"] | tostring' "$T/out"))" \
    test "$(jqv '.jobs[0]["job options"] | "\(.threads) \(.thread // "none")"' "$T/out")" = "1 none"
check "... with one warning that it changes nothing" grep -q "threads=1 has no effect" "$T/err"
rm -f "$T/th"

# dev5's job files (tests/data/fio-wild/README.md, "Sixth batch"). ioengine=aio and linuxaio
# (eideticom's raid5 tests): fio's ioengines.c loads libaio for both names
for e in aio linuxaio; do
    check_exit "ioengine=$e runs" 0 io --name=a --filename="$T/aio" --size=256k --rw=write --ioengine=$e \
        --iodepth=4 --direct=0 --output-format=json
    check "... writing the 256 KiB" test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 262144
    if [ $have_strace = 1 ]; then
        check "... through io_submit (libaio)" sh -c "strace -f -qq -e trace=io_submit '$SB_BIN' io --quiet \
            --name=a --filename='$T/aio' --size=64k --rw=read --ioengine=$e --output-format=terse 2>&1 >/dev/null |
            grep -q io_submit"
    fi
done
rm -f "$T/aio"
# offset_increment=N% (eideticom's size=50% offset_increment=50%): thread i starts i * N % of
# the file further, aligned up to offset_align or bs (fio's get_start_offset): on a sparse
# 4 MiB file two threads of size=25% offset_increment=50% write MiB 0 and MiB 2, as fio 3.33's
nz() { dd if="$1" bs=1M skip="$2" count=1 2>/dev/null | tr -d '\0' | wc -c; }
truncate -s 4m "$T/oi"
check_exit "size=25% offset_increment=50% numjobs=2 runs" 0 io --name=oi --filename="$T/oi" --rw=write --bs=64k \
    --numjobs=2 --size=25% --offset_increment=50% --output-format=json
check "... MiB 0 and 2 written, 1 and 3 left alone ($(nz "$T/oi" 0) $(nz "$T/oi" 1) $(nz "$T/oi" 2) $(nz "$T/oi" 3) bytes not zero)" \
    test "$(nz "$T/oi" 0)" -gt 900000 -a "$(nz "$T/oi" 1)" = 0 -a "$(nz "$T/oi" 2)" -gt 900000 -a "$(nz "$T/oi" 3)" = 0
# 33 % of 4198400 bytes is 1385472, not a multiple of bs: thread 1 starts at 1441792 (22 x 64k)
rm -f "$T/oi"
truncate -s 4198400 "$T/oi"
check_exit "offset_increment=33% of 4198400 bytes runs" 0 in_t io --name=oi --filename="$T/oi" --rw=write --bs=64k \
    --numjobs=2 --size=10% --offset_increment=33% --write_iolog="$T/oi.log" --output-format=terse
check "... the second thread's writes start at 1441792, aligned up to bs, as fio's" \
    test "$(awk '$3 == "write" { print $4 }' "$T"/oi.log* | sort -n | awk '$1 > 0 && $1 < 1441792' | wc -l) $(
        awk '$3 == "write" { print $4 }' "$T"/oi.log* | grep -c '^1441792$')" = "5 1"
check_exit "offset_increment=101%: exit 2" 2 io --name=oi --filename="$T/oi" --rw=write --offset_increment=101%
check_one_line "... one line" "percentage"
rm -f "$T/oi" "$T"/oi.log*
# size=N% over filename=a:b (jsengenberger's fio_fill: eight devices, size=100%): known once the
# files are named, N % of each file (fio applies it file by file; storbench divides the sum
# evenly, so files of different sizes are refused); --parse-only takes it, as fio's
head -c 2m /dev/zero >"$T/p1"
head -c 2m /dev/zero >"$T/p2"
head -c 3m /dev/zero >"$T/p3"
check_exit "size=50% over two files of 2 MiB runs" 0 io --name=p --filename="$T/p1:$T/p2" --rw=read --bs=4k \
    --size=50% --output-format=json
check "... reads half of each, 2 MiB ($(jqv '.jobs[0].read.io_bytes' "$T/out"))" \
    test "$(jqv '.jobs[0].read.io_bytes' "$T/out")" = 2097152
check_exit "size=50% over files of 2 and 3 MiB: exit 2" 2 io --name=p --filename="$T/p1:$T/p3" --rw=read --size=50%
check_one_line "... one line" "different sizes"
check_exit "size=100% over files that do not exist: --parse-only takes it, as fio's" 0 io --parse-only --name=p \
    --filename="$T/none1:$T/none2" --rw=read --bs=512k --size=100%
rm -f "$T/p1" "$T/p2" "$T/p3"
finish
