#!/bin/bash
# fio-engine-options — how many of fio's engine options does storbench take?
#
#   bench/fio-engine-options.sh [--tsv] [ENGINE...]
#       For each ENGINE (default: the engines storbench and fio share, below) lists fio's
#       engine options (`fio --enghelp=ENGINE`) and tries each with the values in VALUES
#       (the option's own ones first, then 1 and 0), in that order, in the one-job file
#           [probe]
#           ioengine=ENGINE
#           filename=probe.dat
#           size=1m
#           BASE                (rw=write for e4defrag and ftruncate, which only write)
#           COMPANION           (what it needs beside it: sqthread_poll=1 for
#           OPTION=VALUE         sqthread_poll_cpu, hipri=1 for hipri_percentage, ...)
#       The first value fio's own parser takes (`fio --parse-only`) is given to
#       `storbench io --parse-only` in the same file, from an empty scratch directory; the
#       option counts as accepted when storbench exits 0. Prints "ENGINE: N of M accepted"
#       (M = options fio takes a value for; an engine fio lacks is said so) and each
#       refused option with the value and storbench's message, then a total line.
#       --tsv: only ENGINE OPTION VALUE accepted|refused|no-fio-value MESSAGE lines.
#
#   SB=./storbench FIO=fio TIMEOUT=20
# Needs bash, coreutils and fio. Exit 0 when it ran, 1 when storbench or fio is missing.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${SB:-$ROOT/build/storbench}
FIO=${FIO:-fio}
TIMEOUT=${TIMEOUT:-20}
TSV=0
if [ "${1:-}" = --tsv ]; then TSV=1; shift; fi
ENGINES=("$@")
[ ${#ENGINES[@]} -gt 0 ] || ENGINES=(io_uring libaio mmap sync psync vsync pvsync pvsync2 posixaio
    null splice falloc ftruncate filecreate filestat filedelete dircreate dirstat dirdelete
    e4defrag sg)
command -v "$FIO" >/dev/null || { echo "fio-engine-options: no $FIO" >&2; exit 1; }
case $SB in */*) [ -x "$SB" ] ;; *) command -v "$SB" >/dev/null ;; esac ||
    { echo "fio-engine-options: no storbench at $SB" >&2; exit 1; }
case $SB in /*) ;; */*) SB=$PWD/$SB ;; esac

# What an option needs beside it to mean anything (fio takes it alone and does nothing):
# given in the same probe file, to fio and storbench alike.
companion_of() {
    case $1 in
    sqthread_poll_cpu) echo "sqthread_poll=1" ;;
    hipri_percentage) echo "hipri=1" ;;
    stream_id) echo "sg_write_mode=write_stream" ;;
    inplace) echo "donorname=donor.dat" ;;
    esac
}

# What an engine needs in any job to run at all (fio parses rw=read with it, then fails
# every I/O): given to both.
engine_base() {
    case $1 in
    e4defrag|ftruncate) echo "rw=write" ;;
    esac
}

# The values to try for an option, its own first: what fio's documentation gives as an
# example of it, then a switch's 1 and a number's 0.
values_of() {
    case $1 in
    cmdprio_bssplit) echo "4k/50" ;;
    cmdprio_class) echo "1" ;;
    cmdprio|cmdprio_percentage|hipri_percentage) echo "10" ;;
    sqthread_poll_cpu) echo "0" ;;
    force_async) echo "4" ;;
    cmd_type) echo "nvme" ;;
    stat_type) echo "statx stat" ;;
    donorname) echo "donor.dat" ;;
    sg_write_mode) echo "write" ;;
    stream_id) echo "1" ;;
    esac
    echo "1 0"
}

WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"' EXIT
total_ok=0 total_n=0
for e in "${ENGINES[@]}"; do
    help=$("$FIO" --enghelp="$e" 2>&1)
    if printf '%s\n' "$help" | grep -q "not loadable\|not found"; then
        [ $TSV = 1 ] && printf '%s\t-\t-\tno-fio-engine\t\n' "$e" || echo "$e: fio has no such engine"
        continue
    fi
    opts=$(printf '%s\n' "$help" | sed -n 's/^\([A-Za-z0-9_]*\) *: .*/\1/p')
    if [ -z "$opts" ]; then
        [ $TSV = 1 ] || echo "$e: 0 of 0 accepted (fio: no engine options)"
        continue
    fi
    ok=0 n=0 refused=""
    for o in $opts; do
        val="" state=no-fio-value msg=""
        for v in $(values_of "$o"); do
            d=$(mktemp -d "$WORK/p.XXXXXX")
            printf '[probe]\nioengine=%s\nfilename=probe.dat\nsize=1m\n%s\n%s\n%s=%s\n' "$e" \
                "$(engine_base "$e")" "$(companion_of "$o")" "$o" "$v" >"$d/job.fio"
            if (cd "$d" && timeout "$TIMEOUT" "$FIO" --parse-only job.fio >/dev/null 2>&1); then
                val=$v
                break
            fi
        done
        if [ -n "$val" ]; then
            n=$((n + 1))
            if msg=$(cd "$d" && timeout "$TIMEOUT" "$SB" io --parse-only job.fio 2>&1 >/dev/null); then
                state=accepted ok=$((ok + 1)) msg=""
            else
                state=refused
                msg=$(printf '%s\n' "$msg" | grep -v '^$' | head -1)
                refused+="    $o=$val: $msg"$'\n'
            fi
        fi
        [ $TSV = 1 ] && printf '%s\t%s\t%s\t%s\t%s\n' "$e" "$o" "${val:--}" "$state" "$msg"
    done
    total_ok=$((total_ok + ok)) total_n=$((total_n + n))
    if [ $TSV = 0 ]; then
        echo "$e: $ok of $n accepted"
        printf '%s' "$refused"
    fi
done
[ $TSV = 1 ] || echo "total: $total_ok of $total_n accepted"
exit 0
