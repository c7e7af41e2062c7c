#!/bin/bash
# CLI tests of fio's several files per job (src/io/job/files.c): nrfiles makes fio's
# NAME.JOB.FILE files (seen through strace, since a --directory's files go when the job
# ends), filename=a:b two files of size/2 (and \: a colon inside one name), the bytes
# fio moves over them, file_service_type's order of files, filename_format, and
# create_on_open / create_fsync (strace: no fallocate, no fsync), io_submit_mode=offload
# over two files. fio 3.33 runs the same
# jobs where it is installed; without fio or strace those comparisons skip, visibly.
. "$(dirname "$0")/lib.sh"

have_fio=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1
have_strace=0
command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null && have_strace=1
jqv() { jq -r "$1" "$2" 2>/dev/null; }

# ---- nrfiles: fio's names in the job's private directory ----
mkdir -p "$T/d"
if [ $have_strace = 1 ]; then
    strace -f -e trace=openat -o "$T/st" "$SB_BIN" io --name=t --directory="$T/d" --nrfiles=3 \
        --numjobs=2 --size=3m --bs=4k --rw=write >/dev/null 2>&1
    grep -o '"[^"]*/t\.[0-9]*\.[0-9]*"' "$T/st" | sed 's|.*/||; s|"||g' | sort -u >"$T/names"
    check "nrfiles=3 numjobs=2: the six files t.J.F, fio's names" \
        test "$(tr '\n' ' ' <"$T/names")" = "t.0.0 t.0.1 t.0.2 t.1.0 t.1.1 t.1.2 "
    if [ $have_fio = 1 ]; then
        mkdir -p "$T/fd"
        fio --name=t --directory="$T/fd" --nrfiles=3 --numjobs=2 --size=3m --bs=4k --rw=write \
            >/dev/null 2>&1
        check "fio makes the same names" test "$(ls "$T/fd" | tr '\n' ' ')" = "$(tr '\n' ' ' <"$T/names")"
        check "fio's files are size/nrfiles" test "$(stat -c %s "$T/fd/t.0.0")" = 1048576
    else
        echo "ok # SKIP fio or jq not installed: no comparison of the names"
    fi
    strace -f -e trace=openat -o "$T/st" "$SB_BIN" io --name=t --directory="$T/d" --nrfiles=2 \
        --numjobs=2 --filename_format='shared.$filenum' --size=2m --rw=write >/dev/null 2>&1
    check "filename_format without \$jobnum: the threads share shared.0 and shared.1" \
        test "$(grep -o '"[^"]*/shared\.[0-9]*"' "$T/st" | sed 's|.*/||; s|"||g' | sort -u | tr '\n' ' ')" = "shared.0 shared.1 "
else
    echo "ok # SKIP strace not usable here: the names made in a --directory are not seen"
fi
check "a --directory job leaves nothing behind" test -z "$(ls -A "$T/d")"

# ---- the bytes: size is the thread's over all its files, as fio's ----
check_exit "nrfiles=3 runs" 0 "$SB_BIN" io --name=t --directory="$T/d" --nrfiles=3 --size=3m \
    --bs=4k --rw=randwrite --output-format=json
check "nrfiles=3 size=3m: 3 MiB written (fio: 3145728)" test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 3145728

# ---- filename=a:b: two files, size divided ----
check_exit "filename=a:b runs" 0 "$SB_BIN" io --name=t --filename="$T/a:$T/b" --size=1m --bs=4k \
    --rw=randwrite --output-format=json
check "filename=a:b: two files, 512 KiB each" \
    test "$(stat -c %s "$T/a" 2>/dev/null)/$(stat -c %s "$T/b" 2>/dev/null)" = 524288/524288
check "filename=a:b: 1 MiB moved in all" test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 1048576
check "filename=a:b: no file named a:b" test ! -e "$T/a:$T/b"
if [ $have_fio = 1 ]; then
    fio --name=t --filename="$T/fa:$T/fb" --size=1m --bs=4k --rw=randwrite >/dev/null 2>&1
    check "fio makes the same two sizes" \
        test "$(stat -c %s "$T/fa" 2>/dev/null)/$(stat -c %s "$T/fb" 2>/dev/null)" = 524288/524288
fi
# ---- mmap maps each file, io_uring registers each (registerfiles=1), as fio's engines ----
ab() { head -c "$1" /dev/zero | tr '\0' '\253'; }
whole_ab() { cmp -s <(ab 524288) "$1" && cmp -s <(ab 524288) "$2"; }
uring=1
"$SB_BIN" io --name=p --filename="$T/probe" --size=64k --rw=write --ioengine=io_uring >/dev/null 2>&1 || uring=0
for e in mmap io_uring; do
    if [ $e = io_uring ] && [ $uring = 0 ]; then
        echo "ok # SKIP io_uring does not work here: its registered files are not tried"
        continue
    fi
    rm -f "$T/ma" "$T/mb"
    check_exit "filename=a:b with ioengine=$e (registerfiles=1 for io_uring) runs" 0 "$SB_BIN" io --name=t \
        --filename="$T/ma:$T/mb" --size=1m --bs=4k --rw=randwrite --ioengine=$e --buffer_pattern=0xab \
        $([ $e = io_uring ] && echo --registerfiles=1) --output-format=json
    check "... 1 MiB moved" test "$(jqv '.jobs[0].write.io_bytes' "$T/out")" = 1048576
    check "... each file written whole (512 KiB of the pattern each)" whole_ab "$T/ma" "$T/mb"
done
check_exit "filename with \\: is one name" 0 "$SB_BIN" io --name=t --filename="$T/x\\:y" --size=64k \
    --rw=write
check "\\: made the file x:y" test -f "$T/x:y"

# ---- a job file: directory prefixes each name of the list, an absolute one too, as fio's
# add_file (directory=D with filename=/y is D//y) ----
mkdir -p "$T/jd"
printf '[j]\ndirectory=%s\nfilename=x:%s/y\nsize=64k\nrw=write\n' "$T/jd" "$T/jd" >"$T/j.fio"
check_exit "a job file's directory and filename=x:ABS/y run" 0 "$SB_BIN" io --quiet "$T/j.fio"
check "... x made in the directory, y below it too, 32 KiB each" \
    test "$(stat -c %s "$T/jd/x" "$T/jd/$T/jd/y" 2>/dev/null | tr '\n' ' ')" = "32768 32768 "
if [ $have_fio = 1 ]; then
    # fio makes the missing directories of a job's first file only: ABS/y alone here
    rm -rf "$T/jd"
    mkdir -p "$T/jd"
    printf '[j]\ndirectory=%s\nfilename=%s/y\nsize=64k\nrw=write\n' "$T/jd" "$T/jd" >"$T/j1.fio"
    fio "$T/j1.fio" >/dev/null 2>&1
    check "... where fio 3.33 makes y" test "$(stat -c %s "$T/jd/$T/jd/y" 2>/dev/null)" = 65536
fi

# ---- file_service_type: the order of the files ----
# fd:block pairs of every 4 KiB pread of a 2-file read job
order() {
    strace -f -e trace=pread64 -o "$T/st" "$@" >/dev/null 2>&1
    grep -o 'pread64([0-9]*, [^,]*, 4096, [0-9]*' "$T/st" | awk -F'[(,]' '{printf "%s:%d ", $2, $5/4096}'
}
if [ $have_strace = 1 ]; then
    rr=$(order "$SB_BIN" io --filename="$T/a:$T/b" --size=32k --rw=read --file_service_type=roundrobin)
    set -- $rr
    check "roundrobin: the files alternate, each from its own start ($rr)" \
        test "$#" = 8 -a "${1#*:}${2#*:}${3#*:}${4#*:}" = 0011 -a "${1%:*}" != "${2%:*}" -a "${1%:*}" = "${3%:*}"
    sq=$(order "$SB_BIN" io --filename="$T/a:$T/b" --size=32k --rw=read --file_service_type=sequential)
    set -- $sq
    check "sequential: one file done, then the next ($sq)" \
        test "$#" = 8 -a "${1%:*}" = "${4%:*}" -a "${5%:*}" = "${8%:*}" -a "${4%:*}" != "${5%:*}" -a "${4#*:}" = 3
    r2=$(order "$SB_BIN" io --filename="$T/a:$T/b" --size=32k --rw=read --file_service_type=roundrobin:2)
    set -- $r2
    check "roundrobin:2: two I/Os on a file before the next ($r2)" \
        test "${1%:*}" = "${2%:*}" -a "${2%:*}" != "${3%:*}" -a "${3%:*}" = "${4%:*}"
    if [ $have_fio = 1 ]; then
        fr=$(order fio --name=t --filename="$T/a:$T/b" --size=32k --rw=read --bs=4k)
        set -- $fr
        check "fio's roundrobin alternates the same way ($fr)" test "${1#*:}${2#*:}${3#*:}" = 001
    fi
    # create_on_open: the new file is neither allocated nor laid out; create_fsync=0: no fsync
    strace -f -e trace=fallocate,fsync,fdatasync -o "$T/st" "$SB_BIN" io --filename="$T/coo" --size=1m \
        --rw=write --create_on_open=1 >/dev/null 2>&1
    check "create_on_open=1: no fallocate before the writes" test "$(grep -c fallocate "$T/st")" = 0
    strace -f -e trace=fallocate,fsync,fdatasync -o "$T/st" "$SB_BIN" io --filename="$T/cf" --size=1m \
        --rw=read --create_fsync=0 >/dev/null 2>&1
    check "create_fsync=0: the laid-out file is not synced" test "$(grep -c 'fsync(' "$T/st")" = 0
    strace -f -e trace=fallocate,fsync,fdatasync -o "$T/st" "$SB_BIN" io --filename="$T/cf1" --size=1m \
        --rw=read >/dev/null 2>&1
    check "create_fsync (default 1): one fsync after the layout" test "$(grep -c ' fsync(' "$T/st")" = 1
else
    echo "ok # SKIP strace not usable here: the order of the files is not seen"
fi
check "create_on_open=1: the writes made the file" test "$(stat -c %s "$T/coo" 2>/dev/null)" = 1048576

# ---- create_on_open with reads (fio's enospc-pressure.fio aio-dio-verifier) ----
# fio 3.33 lays nothing out: randrw's reads land on blocks not written (the random map
# visits each block once a pass), holes read zeros, a read past the end comes back
# empty and libaio counts it; verify checks only what was written. psync fails such a
# read (fio: EIO, "full resid").
coo_job() { echo --filename="$T/coor" --size=1m --bs=4k --rw=randrw --create_on_open=1 --verify=crc32c \
    --verify_backlog=16 --iodepth=4 "$@"; }
rm -f "$T/coor"
check_exit "create_on_open + randrw + verify runs (libaio)" 0 "$SB_BIN" io $(coo_job --ioengine=libaio) \
    --output-format=storbench-json
vj() { jq -r ".. | objects | select(has(\"blocks_checked\")) | $1" "$T/out" 2>/dev/null | head -1; }
rb=$(jq -r '[.. | objects | select(has("read")) | .read][0] | .bytes // .io_bytes // empty' "$T/out" 2>/dev/null)
ri=$(jq -r '[.. | objects | select(has("read")) | .read][0] | .ios // .total_ios // empty' "$T/out" 2>/dev/null)
check "... no verify error, the written blocks checked" test "$(vj .errors)" = 0 -a "$(vj .blocks_checked)" -gt 0
check "... some reads past the end came back empty and were counted ($rb bytes in $ri reads)" \
    test -n "$rb" -a -n "$ri" -a "$rb" -lt $((${ri:-0} * 4096))
check "... every full read found a block not written (not checked, as fio's)" \
    test "$(vj .reads_unchecked)" = $((${rb:-0} / 4096))
rm -f "$T/coor"
check_exit "create_on_open + randrw with psync fails the read past the end (exit 1)" 1 \
    "$SB_BIN" io $(coo_job --ioengine=psync)
check "... naming create_on_open" grep -q "create_on_open" "$T/err"
if [ $have_fio = 1 ]; then
    fj() { echo --name=coo --filename="$T/coof" --size=1m --bs=4k --rw=randrw --create_on_open=1 \
        --verify=crc32c --verify_backlog=16 --iodepth=4 --output-format=json "$@"; }
    rm -f "$T/coof"
    fio $(fj --ioengine=libaio) >"$T/fio.json" 2>/dev/null
    frb=$(jqv '.jobs[0].read.io_bytes' "$T/fio.json"); fri=$(jqv '.jobs[0].read.total_ios' "$T/fio.json")
    check "fio 3.33 runs the same job too, a read past the end counted empty ($frb bytes in $fri reads)" \
        test "$(jqv '.jobs[0].error' "$T/fio.json")" = 0 -a "${frb:-0}" -lt $((${fri:-0} * 4096))
    rm -f "$T/coof"
    fio $(fj --ioengine=psync --iodepth=1) 2>/dev/null | sed -n '/^{/,$p' >"$T/fio.json"
    check "fio fails it with psync (EIO)" test "$(jqv '.jobs[0].error' "$T/fio.json")" = 5
    rm -f "$T/coof"
else
    echo "ok # SKIP fio or jq not installed: create_on_open reads not compared with fio"
fi

# ---- refusals: one line, exit 2 ----
check_exit "file_service_type=bogus is refused" 2 "$SB_BIN" io --filename="$T/a:$T/b" --size=1m \
    --file_service_type=bogus
check_one_line "... naming the option" file_service_type
rm -f "$T/a" "$T/b"
check_exit "verify with two files: runs clean (a table per file)" 0 "$SB_BIN" io --filename="$T/a:$T/b" \
    --size=1m --rw=write --verify=crc32c
check_exit "trim_percentage with two files is refused" 2 "$SB_BIN" io --filename="$T/a:$T/b" --size=1m \
    --rw=write --verify=crc32c --trim_percentage=10 --trim_backlog=4
check_one_line "... naming trim_percentage" trim_percentage
check_exit "filename_format above the job's directory is refused" 2 "$SB_BIN" io --directory="$T/d" --nrfiles=2 \
    --filename_format='../x.$filenum' --size=1m
check_one_line "... naming filename_format" filename_format
check_exit "... and an absolute one" 2 "$SB_BIN" io --directory="$T/d" --nrfiles=2 \
    --filename_format='/tmp/x.$filenum' --size=1m
# a directory below the job's ($filenum/$jobnum, a held-out corpus file's): made, as fio's
mkdir -p "$T/ffd"
check_exit "filename_format='\$filenum/\$jobnum' runs" 0 "$SB_BIN" io --quiet --name=j --directory="$T/ffd" \
    --filename_format='$filenum/$jobnum' --nrfiles=2 --numjobs=2 --size=64k --rw=write --output-format=json
check "... all 32 writes ($(jq '[.jobs[].write.total_ios]|add' "$T/out" 2>/dev/null))" \
    test "$(jq '[.jobs[].write.total_ios]|add' "$T/out" 2>/dev/null)" = 32
check "... and nothing left in the directory" test -z "$(ls -A "$T/ffd")"
# io_submit_mode=offload over two files: each I/O goes to the file it was drawn for (the
# submit threads took the thread's first descriptor once, so every write went to a), as fio's
if [ $have_strace = 1 ]; then
    mkdir -p "$T/off"
    for e in psync "libaio --iodepth=4"; do
        (cd "$T/off" && strace -f -y -e trace=pwrite64,io_submit -o "$T/stoff" "$SB_BIN" io --name=j \
            --filename=a:b --size=1m --bs=4k --rw=write --io_submit_mode=offload --ioengine=$e >/dev/null 2>&1)
        na=$(grep -c '</[^>]*/off/a>' "$T/stoff"); nb=$(grep -c '</[^>]*/off/b>' "$T/stoff")
        check "offload ($e) over filename=a:b: 128 writes to each file (a $na, b $nb)" test "$na:$nb" = 128:128
    done
else
    echo "ok # SKIP strace not usable here: offload over two files is not seen"
fi
finish
