#!/bin/bash
# fio-examples — tries every fio job file in DIR (default: fio's own examples/,
# tests/data/fio-examples) with `storbench io` at a tiny scale and prints per file
# one of:
#   runs     the job file was read and every job in it ran (exit 0)
#   refused  storbench refused it before anything ran: exit 2 and one line naming
#            the file's line and the option (printed as the detail); for options
#            refused together (the job's check) the line of the job's section
#   fails    anything else: another exit code, a refusal without FILE:LINE, a run
#            that failed (the first line of its error as the detail)
#   engine   the file is written for an engine storbench does not have (its
#            ioengine lines, or for files without one the engine the comments run
#            it with, such as xnvme): not counted
# then a summary: runs / refused / fails of the files that use storbench's engines,
# and the options that refused, most frequent first.
#
# Tiny scale: each file is copied into a scratch directory with its sizes
# (size, filesize, io_size) set to SIZE (and SIZE for jobs that give none), runtime to RUNTIME, startdelay to 0,
# iodepth to at most 4, numjobs to 1, loops to 2, a bare rate, ratemin or rate_min
# (bytes/s) 1000 times higher (1mbs_clients.fio's 1250 B/s would take 200 s per
# client at 256 KiB), direct I/O off, time_based and
# ramp_time removed, fill_device removed (it would fill the file system, whatever size says),
# the environment variables its comments run it with set (sprandom.fio's "env FIO_BS=4096"),
# and filename/directory lines removed (storbench gets
# --directory of its own, so a file naming /dev/nvme0n1 touches no device); a
# zonemode=zbd file gets zones of ZONESIZE (its zones are emulated on the scratch file),
# bs 64k (a trim job's bs ZONESIZE: under zbd a trim is a zone) and an offset of 2 zones (offset=524z of 256M zones would lay out 131 GiB). The
# copy runs with the scratch directory as its working directory (fio's log files
# land there) and the scratch directory is removed at the end.
#
#   bench/fio-examples.sh [--tsv] [DIR]
#   SB=./storbench SIZE=2m RUNTIME=1 TIMEOUT=60 ZONESIZE=256k
# --tsv: the per-file lines only, tab-separated (NAME STATE DETAIL), for tests.
# Exit 0 when it ran (whatever the counts); 1 when storbench is missing.
set -u
TSV=0
[ "${1:-}" = --tsv ] && { TSV=1; shift; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-$ROOT/tests/data/fio-examples}
SB=${SB:-$ROOT/storbench}
SIZE=${SIZE:-2m}
RUNTIME=${RUNTIME:-1}
TIMEOUT=${TIMEOUT:-60}
ZONESIZE=${ZONESIZE:-256k}
[ -x "$SB" ] || { echo "fio-examples: $SB not built (make)" >&2; exit 1; }
SB=$(cd "$(dirname "$SB")" && pwd)/$(basename "$SB")
W=$(mktemp -d /var/tmp/sb-fioex.XXXXXX)
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP

ENGINES=" psync sync pvsync pvsync2 libaio io_uring posixaio mmap null "

# The engines a file's lines name, else those its comments run it with.
file_engines() {
    local e
    e=$(sed -n 's/^[[:space:]]*ioengine=\([A-Za-z0-9_]*\).*/\1/p' "$1" | sort -u)
    [ -n "$e" ] || e=$(grep -o -- '--ioengine=[A-Za-z0-9_]*' "$1" | sed 's/.*=//' | sort -u)
    echo $e
}

# The environment a file's comments run it with ("; env FIO_BS=4096 \\", as sprandom.fio
# says: fio expands ${VAR} from the environment, an unset one to nothing): VAR=VALUE words.
file_env() {
    grep -oE '^[;#][[:space:]]*env[[:space:]]+[A-Za-z_][A-Za-z0-9_]*=[^[:space:]\\]+' "$1" |
        sed -E 's/.*env[[:space:]]+//' | sort -u
}

# A zonemode=zbd file's block sizes: 64k, and ZONESIZE in a section that trims (under
# zbd a trim resets one zone: its bs is the zone size, wherever rw= is in the section).
zbd_bs() {
    awk -v zs="$ZONESIZE" '
        function flush(  i, l) {
            for (i = 1; i <= n; i++) {
                l = buf[i]
                if (l ~ /^[[:space:]]*bs=/) sub(/bs=.*/, "bs=" (trim ? zs : "64k"), l)
                print l
            }
            n = 0; trim = 0
        }
        /^[[:space:]]*\[/ { flush() }
        /^[[:space:]]*rw=(rand)?trim[[:space:]]*$/ { trim = 1 }
        { buf[++n] = $0 }
        END { flush() }' "$1"
}

# The file at tiny scale (see the top).
shrink() {
    local zbd=() in=$1
    if grep -q '^[[:space:]]*zonemode=zbd' "$1"; then
        zbd=(-e "s/^([[:space:]]*)zonesize=.*/\1zonesize=$ZONESIZE/" -e 's/^([[:space:]]*)offset=.*/\1offset=2z/')
        zbd_bs "$1" >"$2.zbd" && in=$2.zbd
    fi
    sed -E "${zbd[@]}" -e "s/^([[:space:]]*)(size|filesize|io_size)=.*/\1\2=$SIZE/" \
        -e "s/^([[:space:]]*)runtime=.*/\1runtime=$RUNTIME/" \
        -e 's/^([[:space:]]*)startdelay=.*/\1startdelay=0/' \
        -e 's/^([[:space:]]*)(filename|directory|fill_device|fill_fs)=.*//' -e 's/^([[:space:]]*)direct=1/\1direct=0/' \
        -e 's/^([[:space:]]*)numjobs=.*/\1numjobs=1/' -e 's/^([[:space:]]*)(time_based|ramp_time)([[:space:]]*=.*)?$//' \
        -e 's/^([[:space:]]*)iodepth=([5-9]|[0-9][0-9]+)([^0-9].*)?$/\1iodepth=4/' \
        -e 's/^([[:space:]]*)loops=.*/\1loops=2/' \
        -e 's/^([[:space:]]*)(rate|ratemin|rate_min)=([0-9]+)[[:space:]]*$/\1\2=\3k/' "$in" >"$2"
    rm -f "$2.zbd"
}

n_runs=0 n_ref=0 n_fail=0 n_eng=0
: >"$W/refused"
for f in "$DIR"/*.fio; do
    b=$(basename "$f")
    other=""
    for e in $(file_engines "$f"); do
        case "$ENGINES" in *" $e "*) ;; *) other="$other $e" ;; esac
    done
    if [ -n "$other" ]; then
        state=engine detail="ioengine${other}"
        n_eng=$((n_eng + 1))
    else
        mkdir -p "$W/d" "$W/run"
        s="$W/run/$b"
        shrink "$f" "$s"
        fenv=$(file_env "$f")
        # refusals are judged on the file as written (its line numbers), runs on the copy
        (cd "$W/run" && env $fenv timeout "$TIMEOUT" "$SB" io --directory="$W/d" --parse-only "$f") >"$W/out" 2>"$W/err"
        rc=$?
        if [ $rc = 0 ]; then
            (cd "$W/run" && env $fenv timeout "$TIMEOUT" "$SB" io --directory="$W/d" --quiet --size="$SIZE" "$s") >"$W/out" 2>"$W/err"
            rc=$?
        fi
        errl=$(grep -v ' warning' "$W/err" | grep -v '^storbench: warning' | head -1)
        if [ $rc = 0 ]; then
            state=runs detail=""
            n_runs=$((n_runs + 1))
        elif [ $rc = 2 ] && [ "$(grep -vc 'warning' "$W/err")" = 1 ] && grep -q "$b:[0-9]*): " "$W/err"; then
            # refused by the job's check: "JOB (FILE:LINE): OPTION: why", the section's line
            state=refused detail=$(printf '%s\n' "${errl#*"$b":}" | sed 's/^\([0-9]*\)): /\1: /')
            n_ref=$((n_ref + 1))
            printf '%s\n' "$detail" | sed -E 's/^[0-9]+: ([A-Za-z_0-9]+):.*/\1/' >>"$W/refused"
        elif [ $rc = 2 ] && [ "$(grep -vc 'warning' "$W/err")" = 1 ] && grep -q "$b:[0-9]*: " "$W/err"; then
            state=refused detail=${errl#*"$b":}
            n_ref=$((n_ref + 1))
            # the option named: "unknown option 'x'" or "x: why"
            o=$(printf '%s\n' "$detail" | sed -E "s/^[0-9]+: //; s/^unknown option '([^']*)'.*/\1/; s/^([A-Za-z_0-9]+):.*/\1/")
            echo "$o" >>"$W/refused"
        else
            state=fails detail="exit $rc: $errl"
            n_fail=$((n_fail + 1))
        fi
        rm -rf "$W/d" "$W/run"
    fi
    if [ $TSV = 1 ]; then
        printf '%s\t%s\t%s\n' "$b" "$state" "$detail"
    else
        printf '%-34s %-8s %s\n' "$b" "$state" "$detail"
    fi
done
[ $TSV = 1 ] && exit 0
ours=$((n_runs + n_ref + n_fail))
echo
echo "fio examples with storbench's engines: $ours (other engines: $n_eng)"
echo "  runs:    $n_runs ($(awk -v a=$n_runs -v b=$ours 'BEGIN { printf "%.0f", b ? 100 * a / b : 0 }') %)"
echo "  refused: $n_ref (the option named)"
echo "  fails:   $n_fail"
if [ -s "$W/refused" ]; then
    echo "refused by (examples):"
    sort "$W/refused" | uniq -c | sort -rn | sed 's/^/  /'
fi
