#!/bin/bash
# CLI tests of fio's --profile: tiobench's four jobs (seqwrite, randwrite, seqread,
# randread, one after another) on the files .fio.tio.1 .. .4, each job through the whole
# size once; its options --block, --numruns, --threads and --dir change bs, loops,
# numjobs and the directory; job options given on the command line win over the
# profile's; act is refused in one line, and so is profile= in a job file (fio keeps the
# name there and loads nothing). Where fio 3.33 is installed, its tiobench run and
# storbench's have the same jobs and I/O counts (fio's own --size is overridden by the
# profile's, so both runs are bounded with io_size, which the profile leaves alone).
# The sync engine the profile uses keeps each file's position apart (the 64 KiB files).
. "$(dirname "$0")/lib.sh"
io() { "$SB_BIN" io --quiet "$@"; }
cd "$T" || exit 1

# jobs FILE: "name:read_ios:write_ios" per job of a JSON report
jobs() { jq -r '.jobs[] | "\(.jobname):\(.read.total_ios):\(.write.total_ios)"' "$1" 2>/dev/null | tr '\n' ' '; }

mkdir "$T/tb"
check_exit "--profile=tiobench --size=256k --directory=DIR" 0 io --profile=tiobench --size=256k \
    --directory="$T/tb" --output-format=json
cp "$T/out" "$T/tb.json"
check "... its four jobs, each through 256 KiB in 4 KiB I/Os ($(jobs "$T/tb.json"))" \
    test "$(jobs "$T/tb.json")" = "seqwrite:0:64 randwrite:0:64 seqread:64:0 randread:64:0 "
check "... on the four files .fio.tio.1 .. .4 of 64 KiB ($(ls -A "$T/tb" | tr '\n' ' '))" \
    test "$(ls -A "$T/tb" | tr '\n' ' ')" = ".fio.tio.1 .fio.tio.2 .fio.tio.3 .fio.tio.4 " \
    -a "$(stat -c %s "$T/tb/.fio.tio.4")" = 65536
check "... with fio's options among the global options (ioengine=sync, buffered=0, overwrite=1)" \
    test "$(jq -r '."global options" | "\(.ioengine) \(.buffered) \(.overwrite)"' "$T/tb.json")" = "sync 0 1"
check "... one job after another (each its own group)" \
    test "$(jq -r '[.jobs[].groupid] | map(tostring) | join(",")' "$T/tb.json")" = "0,1,2,3"

mkdir "$T/tb2"
check_exit "--block=8192 --numruns=2 --threads=2 --dir=DIR" 0 io --profile=tiobench --size=256k \
    --block=8192 --numruns=2 --threads=2 --dir="$T/tb2" --output-format=json
check "... 8 KiB I/Os, twice through, two threads a job ($(jobs "$T/out"))" \
    test "$(jobs "$T/out")" = "seqwrite:0:128 randwrite:0:128 seqread:128:0 randread:128:0 "
check "... the files in --dir" test -s "$T/tb2/.fio.tio.1"
check "... bs=8192 in the jobs" test "$(jq -r '.jobs[0]."job options".bs // ."global options".bs' "$T/out")" = 8192

check "--showcmd: the profile's jobs as one fio command line, each after the last (--stonewall)" \
    sh -c "'$SB_BIN' io --profile=tiobench --showcmd | grep -q -- '--name=randwrite --stonewall --rw=randwrite'"
check_exit "--profile=act: exit 2" 2 io --profile=act --size=256k --directory="$T/tb"
check_one_line "... one line saying why" "act"
check_exit "--profile=nope: exit 2" 2 io --profile=nope
check_one_line "... naming fio's profiles" "tiobench"
check_exit "--block without --profile: exit 2" 2 io --name=j --filename="$T/f" --size=64k --block=8192
check_one_line "... one line" "profile=tiobench"
printf '[j]\nprofile=tiobench\nfilename=%s/pf\nsize=64k\n' "$T" >"$T/p.fio"
check_exit "profile= in a job file: exit 2" 2 io --parse-only "$T/p.fio"
check_one_line "... one line pointing to --profile" "\-\-profile"

if command -v fio >/dev/null; then
    for tool in fio sb; do
        mkdir "$T/$tool" && (cd "$T/$tool" &&
            if [ $tool = fio ]; then fio --profile=tiobench --io_size=64k --output-format=json
            else "$SB_BIN" io --quiet --profile=tiobench --io_size=64k --output-format=json; fi
        ) >"$T/$tool.json" 2>"$T/$tool.err"
    done
    check "fio's tiobench and storbench's: the same jobs and I/Os ($(jobs "$T/fio.json")| $(jobs "$T/sb.json"))" \
        test -n "$(jobs "$T/fio.json")" -a "$(jobs "$T/fio.json")" = "$(jobs "$T/sb.json")"
    # fio's files are size/4 bytes each, storbench's that in whole blocks (the I/Os are the same)
    fs=$(stat -c %s "$T/fio/.fio.tio.4" 2>/dev/null) ss=$(stat -c %s "$T/sb/.fio.tio.4" 2>/dev/null)
    check "... the same four files, within a block of the same size ($fs, $ss)" \
        test "$(cd "$T/fio" && ls -A)" = "$(cd "$T/sb" && ls -A)" -a -n "$fs" -a -n "$ss" -a \
        "$((fs - ss))" -ge 0 -a "$((fs - ss))" -lt 4096
    rm -rf "$T/fio" "$T/sb"
else
    echo "ok # SKIP no fio: the comparison with fio's tiobench"
fi
finish
