#!/bin/bash
# CLI tests of big and careless job files, as fio takes them: a file of 1,000 job sections
# runs in a 4 GB address space (prlimit --as; each job's two threads have stacks sized to
# need, not glibc's 8 MiB), and so does one job of numjobs=1000; a 5,000-byte line (a long
# description=) is read, up to fio's 8,191 bytes, and one byte more is refused in one line;
# numjobs goes to fio's 4,096 threads, verify included (it tells 65,536 threads apart),
# refuses more in one line; iodepth=1024 offloaded (a submit thread per I/O) fits in 4 GB
# too; iodepth 4096 and bs 64 MiB are taken.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/cwd"
head -c 1M /dev/zero >"$T/cwd/f"
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "[job%d]\nfilename=f\nsize=1m\nrw=read\nbs=4k\n", i }' >"$T/j1000.fio"
if command -v prlimit >/dev/null; then
    check_exit "1,000 job sections run under prlimit --as=4000000000" 0 \
        sh -c "cd '$T/cwd' && prlimit --as=4000000000 '$SB_BIN' io --output-format=terse '$T/j1000.fio'"
    check "... 1,000 jobs reported, each read 1024 KiB without error" \
        test "$(awk -F';' '$5 == 0 && $6 == 1024' "$T/out" | wc -l)" = 1000
    printf '[j]\nsize=64k\nrw=read\nbs=4k\nnumjobs=1000\n' >"$T/nj.fio"
    rm -rf "$T/cwd2" && mkdir "$T/cwd2"
    check_exit "numjobs=1000 runs under prlimit --as=4000000000" 0 \
        sh -c "cd '$T/cwd2' && prlimit --as=4000000000 '$SB_BIN' io --output-format=terse '$T/nj.fio'"
    check "... 1,000 threads reported, each read 64 KiB" \
        test "$(awk -F';' '$5 == 0 && $6 == 64' "$T/out" | wc -l)" = 1000
    # io_submit_mode=offload: a submit thread per I/O in flight, each with a small stack
    printf '[j]\nfilename=f\nsize=1m\nrw=randread\nbs=4k\niodepth=1024\nio_submit_mode=offload\n' >"$T/off.fio"
    check_exit "iodepth=1024 offloaded (1,024 submit threads) runs under prlimit --as=4000000000" 0 \
        sh -c "cd '$T/cwd' && prlimit --as=4000000000 '$SB_BIN' io --output-format=terse '$T/off.fio'"
    check "... and reads the 1024 KiB" test "$(awk -F';' '$5 == 0 && $6 == 1024' "$T/out" | wc -l)" = 1
else
    echo "ok # SKIP no prlimit: the 1,000-job runs in 4 GB are not tried"
fi

# a line of N bytes (its newline aside): description= and x's
long_line() { awk -v n="$1" 'BEGIN { printf "[j]\nfilename=f\nsize=1m\nrw=read\ndescription="; for (i = 13; i <= n; i++) printf "x"; printf "\n" }'; }
long_line 5000 >"$T/l5000.fio"
long_line 8191 >"$T/l8191.fio"
long_line 8192 >"$T/l8192.fio"
check "the lines are 5000, 8191 and 8192 bytes" \
    test "$(awk 'length > 100 { printf "%d ", length }' "$T/l5000.fio" "$T/l8191.fio" "$T/l8192.fio")" = "5000 8191 8192 "
check_exit "a 5,000-byte description= line is read" 0 "$SB_BIN" io --parse-only "$T/l5000.fio"
check_exit "an 8,191-byte line (fio's longest) is read" 0 "$SB_BIN" io --parse-only "$T/l8191.fio"
check_exit "an 8,192-byte line: exit 2" 2 "$SB_BIN" io --parse-only "$T/l8192.fio"
check_one_line "... one line" "line longer than 8191 bytes"

jf() { printf '[j]\nfilename=f\nsize=1m\nrw=write\n' >"$T/o.fio"; printf '%s\n' "$@" >>"$T/o.fio"; }
jf numjobs=4096
check_exit "numjobs=4096 (fio's most threads) is taken" 0 "$SB_BIN" io --parse-only "$T/o.fio"
jf numjobs=4097
check_exit "numjobs=4097: exit 2" 2 "$SB_BIN" io --parse-only "$T/o.fio"
check_one_line "... one line" "numjobs"
# verify tells 65,536 threads of a job apart (fio's header: 16 bits), so any numjobs runs
mkdir "$T/v300"
printf '[j]\ndirectory=%s\nsize=8k\nbs=4k\nrw=write\nverify=crc32c\nnumjobs=300\ngroup_reporting\n' "$T/v300" >"$T/o.fio"
check_exit "verify with numjobs=300 runs" 0 "$SB_BIN" io --output-format=json "$T/o.fio"
check "... every thread's two blocks read back and verified ($(jq '[.jobs[].read.total_ios] | add' "$T/out") reads)" \
    test "$(jq '[.jobs[].read.total_ios] | add' "$T/out")" = 600
rm -rf "$T/v300"
jf iodepth=4096 ioengine=libaio
check_exit "iodepth=4096 is taken" 0 "$SB_BIN" io --parse-only "$T/o.fio"
jf bs=64m size=64m
check_exit "bs=64m is taken" 0 "$SB_BIN" io --parse-only "$T/o.fio"
finish
