#!/bin/bash
# CLI test of several filename= lines, as fio 3.33 takes them (options/parse_files.c): each
# line adds its files to the job's, a job starts with its [global]'s and the command
# line's, a name given twice is two files of the job, each name goes below the directory
# the job has when the line is read (in a section, after its other lines), and the job's
# size is divided among all of them. Each job file below is run by storbench and by fio
# 3.33, each from a scratch of its own: the files laid out (name=size), the bytes each
# file was written by pwrite64 (strace -y) and each job's io_bytes must be fio's, and the
# figures fio gave when this was written (so the test means something where fio is not).
. "$(dirname "$0")/lib.sh"
fio_scratch
have_strace=0
command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null && have_strace=1
[ $have_strace = 1 ] || echo "ok # SKIP strace not usable here: the bytes per file are not seen"

# summary TOOL DIR JSON STRACE: "files: N=SIZE ... | written: N=BYTES ... | io: JOB=BYTES ..."
summary() {
    local d=$2
    printf 'files: %s| ' "$(cd "$d" && find . -type f -printf '%P=%s\n' | sort | tr '\n' ' ')"
    if [ $have_strace = 1 ]; then
        printf 'written: %s| ' "$(sed -n 's/.*pwrite64([0-9]*<\([^>]*\)>.* = \([0-9]*\)$/\1 \2/p' "$4" |
            awk -v d="$d/" '{ if (index($1, d) == 1) $1 = substr($1, length(d) + 1); s[$1] += $2 }
                            END { for (k in s) print k "=" s[k] }' | sort | tr '\n' ' ')"
    fi
    printf 'io: %s' "$(jq -r '[.jobs[] | "\(.jobname)=\(.read.io_bytes + .write.io_bytes)"] | join(" ")' "$3" 2>/dev/null)"
}

# both NAME WANT JOB [ARGS...]: the job file JOB (printf %b) run by storbench (and fio) with
# ARGS before it, cwd a scratch holding empty directories d1 and d2; checks storbench's
# summary against WANT (strace's part dropped from WANT when strace is not usable) and
# against fio's.
both() {
    local name=$1 want=$2 job=$3 tool
    shift 3
    printf '%b' "$job" >"$T/$name.fio"
    [ $have_strace = 1 ] || want=$(echo "$want" | sed 's/written: [^|]*| //')
    for tool in sb fio; do
        [ $tool = fio ] && [ $have_fio = 0 ] && continue
        local d=$T/$tool/$name cmd
        mkdir -p "$d/d1" "$d/d2"
        [ $tool = sb ] && cmd=("$SB_BIN" io) || cmd=(fio)
        (cd "$d" && if [ $have_strace = 1 ]; then
            strace -f -y -e trace=pwrite64 -o "$T/$name.$tool.st" "${cmd[@]}" --output-format=json \
                --output="$T/$name.$tool.json" "$@" "$T/$name.fio"
        else
            "${cmd[@]}" --output-format=json --output="$T/$name.$tool.json" "$@" "$T/$name.fio"
        fi) >/dev/null 2>"$T/$name.$tool.err"
        echo "$(summary $tool "$d" "$T/$name.$tool.json" "$T/$name.$tool.st")" >"$T/$name.$tool.sum"
    done
    local got; got=$(cat "$T/$name.sb.sum")
    check "$name: storbench [$got] is fio 3.33's [$want]$(head -c 200 "$T/$name.sb.err" | tr '\n' ' ')" \
        test "$got" = "$want"
    [ $have_fio = 0 ] ||
        check "$name: ... and fio here makes the same [$(cat "$T/$name.fio.sum")]" test "$got" = "$(cat "$T/$name.fio.sum")"
}

J='[global]\nsize=1m\nbs=4k\nrw=write\nioengine=psync\n'
M=1048576 H=524288

# two filename lines in one section: both files, size divided
both lines "files: a=$H b=$H | written: a=$H b=$H | io: j=$M" "$J[j]\nfilename=a\nfilename=b\n"
# the [global]'s file and the job's own (vtechnolust-fio.txt has six lines in one job)
both global "files: a2=$H g1=$H | written: a2=$H g1=$H | io: j=$M" "${J}filename=g1\n[j]\nfilename=a2\n"
# a list, then a line: three files
both list_line "files: a=$M b=$M c=$M | written: a=$M b=$M c=$M | io: j=3145728" \
    "${J}size=3m\n[j]\nfilename=a:b\nfilename=c\n"
# the same name twice (kata-containers-seqwrite-mmap.job): two files of the job on one
# file, each half the size: the file is 512 KiB, written twice over
both same_twice "files: f=$H | written: f=$M | io: j=$M" "${J}filename=f\n[j]\nfilename=f\n"
# two jobs, one after the other: each its [global]'s file and its own (g written by both)
both two_jobs "files: a=$H b=$H g=$H | written: a=$H b=$H g=$M | io: j=$M k=$M" \
    "${J}filename=g\n[j]\nfilename=a\n[k]\nstonewall\nfilename=b\n"
# nrfiles in the same section is overridden by the list (fio counts the names)
both nrfiles "files: a=$H b=$H | written: a=$H b=$H | io: j=$M" "$J[j]\nnrfiles=4\nfilename=a:b\n"
# nrfiles after the job has files (a [global]'s) is fio's count of them: the job's files
# are the first N (the others neither laid out nor used), each size/N; a later line adds
# to that count, and the files past it are still not the job's
both nr_later "files: a=$M | written: a=$M | io: j=$M" "${J}filename=a:b\n[j]\nnrfiles=1\n"
both nr_later_add "files: a=$H b=$H | written: a=$H b=$H | io: j=$M" "${J}filename=a:b\n[j]\nnrfiles=1\nfilename=c\n"
# filename_format and nrfiles name nothing once a filename does
both format "files: a=$M | written: a=$M | io: j=$M" \
    "$J[j]\nfilename_format=x.\$filenum\nnrfiles=2\nfilename=a\n"
# directory: a name goes below the directory the job has when its line is read, in a
# section after the section's directory line whatever the order
both dir_global "files: d1/g=$H d2/a=$H | written: d1/g=$H d2/a=$H | io: j=$M" \
    "${J}directory=d1\nfilename=g\n[j]\ndirectory=d2\nfilename=a\n"
both dir_later "files: d2/a=$H g=$H | written: d2/a=$H g=$H | io: j=$M" \
    "${J}filename=g\n[j]\ndirectory=d2\nfilename=a\n"
both dir_order "files: d1/a=$M | written: d1/a=$M | io: j=$M" "$J[j]\nfilename=a\ndirectory=d1\n"
# the command line's --filename comes first, then the job file's
both cmdline "files: a=$H c=$H | written: a=$H c=$H | io: j=$M" "$J[j]\nfilename=a\n" --filename=c
# the mmap engine maps each file (the same one twice here, as kata's job), io_uring's
# registerfiles registers each (esihaj-iops.fio: eight devices)
both mmap "files: f=$H | written: | io: j=$M" "${J}ioengine=mmap\nfilename=f\n[j]\nfilename=f\n"
both registerfiles "files: a=262144 b=262144 c=262144 d=262144 | written: | io: j=$M" \
    "${J}ioengine=io_uring\nregisterfiles=1\nrw=randwrite\n[j]\nfilename=a\nfilename=b\nfilename=c\nfilename=d\n"
finish
