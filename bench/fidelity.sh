#!/bin/bash
# fidelity — every storbench test against the reference tool it stands in for,
# on one target, with the same parameters, in one run: each round runs every
# pair, the reference first in odd rounds and storbench first in even ones
# (whichever runs first is often faster: tmpfs memory state, writeback,
# discard). Prints one table: per test and figure the means of the raw values,
# the geometric mean of the per-round ratios storbench / reference, their min
# and max, and the rounds. docs/fidelity.md explains every pair.
#
#   bench/fidelity.sh [--only LIST] [--tsv FILE] TARGET [ROUNDS]   (ROUNDS: 3)
#   bench/fidelity.sh --table FILE        re-print the table of a saved TSV
#
#   --only LIST  (or ONLY=LIST) comma-separated pairs or families to run:
#                dd, fio (fio-randwrite, fio-write, fio-randread-io_uring,
#                fio-randread-libaio), fs-mark (fs-mark-1000, fs-mark-4x250,
#                fs-mark-32dirs), dbench (dbench-client, dbench-default),
#                postmark, sqlite, pgbench, iozone (iozone-4k, iozone-64k,
#                iozone-1m), compilebench
#   --tsv FILE   (or TSV=FILE) also write every pair, one line per round and
#                figure: round test figure unit better first reference
#                storbench ratio (appended as the run goes)
#
# Ratios are of the raw values, also for figures in seconds (SQLite, PostMark's
# wall time): there a ratio under 1 means storbench took less time. PostMark
# and SQLite also give cpu-seconds (each process's time on a CPU, from
# /proc/PID/task/*/schedstat) and minus-runq (seconds less the time the
# process waited for a CPU): on a shared machine most of PostMark's wall time
# is that wait, other jobs' doing (docs/fidelity.md, "Counted").
# Parameters (issue 10's table; the environment may shrink them for a quick
# check of the script, and the header prints what ran): DD_COUNT=512 (x 2 MiB),
# FIO_SIZE=256m FIO_RAMP=2 FIO_RUNTIME=10, FSMARK_FILES=1000, DBENCH_TIME=15
# (warm-up a fifth of it, as dbench), POSTMARK_TX=25000, SQLITE_COUNT=2500,
# PG_SCALE=2 PG_TIME=15 (4 clients, 2 threads), IOZONE_SIZE=512m (64m 512m 2g
# 4g 8g: storbench's file sizes).
# IOZONE=path: an IOzone binary (not in Debian; docs/fidelity.md says how to
# build it); the iozone pairs are skipped without it. COMPILEBENCH=path: the
# compilebench script (Python 3 version, its data set files beside it), CB_TREES=10.
# STORBENCH=path selects the binary (default: the one in this checkout).
# Needs jq; run as root for pgbench's reference server (as user postgres).
# Exit: 0 done, 1 runtime failure, 2 bad arguments, 130 interrupted; every
# temporary file, server and process it started is gone in every case.
set -u
LIB_NAME=fidelity
# shellcheck source=bench/lib.sh disable=SC2034
. "$(dirname "$0")/lib.sh"

usage() {
    echo "fidelity: $* (usage: bench/fidelity.sh [--only LIST] [--tsv FILE] TARGET [ROUNDS]; see --help)" >&2
    exit 2
}

# ---- the pairs: id, reference tool, figures ("key:unit" ...) ----
IDS=(dd fio-randwrite fio-write fio-randread-io_uring fio-randread-libaio
    fs-mark-1000 fs-mark-4x250 fs-mark-32dirs dbench-client dbench-default
    postmark sqlite pgbench iozone-4k iozone-64k iozone-1m compilebench)
declare -A TOOL=([dd]=dd [postmark]=postmark [sqlite]=sqlite3 [pgbench]=pgbench
    [compilebench]=compilebench)
declare -A FIGS=([dd]="direct-write:MB/s direct-read:MB/s read-cache:MB/s"
    [postmark]="tps:TPS seconds:s cpu-seconds:s minus-runq:s"
    [sqlite]="seconds:s cpu-seconds:s minus-runq:s" [pgbench]="tps:TPS"
    [compilebench]="initial_create:MB/s")
for id in fio-randwrite fio-write fio-randread-io_uring fio-randread-libaio; do
    TOOL[$id]=fio; FIGS[$id]="iops:IOPS"
done
for id in fs-mark-1000 fs-mark-4x250 fs-mark-32dirs; do
    TOOL[$id]=fs_mark; FIGS[$id]="files_per_s:Files/s"
done
for id in iozone-4k iozone-64k iozone-1m; do
    TOOL[$id]=iozone; FIGS[$id]="write:MB/s read:MB/s"
done
for id in dbench-client dbench-default; do
    TOOL[$id]=dbench; FIGS[$id]="mb_per_s:MB/s"
done

# ---- arguments ----
ONLY=${ONLY:-}
TSV=${TSV:-}
TABLE=""
while [ $# -gt 0 ]; do
    case "$1" in
        --only) [ $# -ge 2 ] || usage "--only needs a list"; ONLY=$2; shift 2 ;;
        --only=*) ONLY=${1#*=}; shift ;;
        --tsv) [ $# -ge 2 ] || usage "--tsv needs a file"; TSV=$2; shift 2 ;;
        --tsv=*) TSV=${1#*=}; shift ;;
        --table) [ $# -ge 2 ] || usage "--table needs a file"; TABLE=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; break ;;
        -*) usage "unknown option $1" ;;
        *) break ;;
    esac
done
if [ -n "$TABLE" ]; then
    [ $# = 0 ] || usage "--table takes no TARGET"
    [ -r "$TABLE" ] || usage "cannot read $TABLE"
    lib_summary "$TABLE"
    exit 0
fi
[ $# -ge 1 ] && [ $# -le 2 ] || usage "need TARGET and at most ROUNDS"
TARGET=$1
ROUNDS=${2:-3}
[[ "$ROUNDS" =~ ^[1-9][0-9]{0,2}$ ]] || usage "ROUNDS must be a whole number 1..999, not '$ROUNDS'"
[ -d "$TARGET" ] || usage "target $TARGET is not a directory"
[ -w "$TARGET" ] || usage "target $TARGET is not writable"
if [ -n "$TSV" ]; then
    [ -d "$(dirname "$TSV")" ] || usage "no directory for --tsv $TSV"
fi
for v in DD_COUNT FIO_RAMP FIO_RUNTIME FSMARK_FILES DBENCH_TIME POSTMARK_TX SQLITE_COUNT PG_SCALE PG_TIME; do
    [ -z "${!v:-}" ] || [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || usage "$v must be a positive whole number"
done
DD_COUNT=${DD_COUNT:-512}
FIO_SIZE=${FIO_SIZE:-256m}
[[ "$FIO_SIZE" =~ ^[1-9][0-9]*[kmg]$ ]] || usage "FIO_SIZE must look like 256m"
FIO_RAMP=${FIO_RAMP:-2}
FIO_RUNTIME=${FIO_RUNTIME:-10}
FSMARK_FILES=${FSMARK_FILES:-1000}
DBENCH_TIME=${DBENCH_TIME:-15}
DBENCH_WARMUP=$((DBENCH_TIME / 5))
POSTMARK_TX=${POSTMARK_TX:-25000}
SQLITE_COUNT=${SQLITE_COUNT:-2500}
[ "$SQLITE_COUNT" -le 32767 ] || usage "SQLITE_COUNT must be at most 32767"
PG_SCALE=${PG_SCALE:-2}
PG_TIME=${PG_TIME:-15}
IOZONE_SIZE=${IOZONE_SIZE:-512m}
[[ "$IOZONE_SIZE" =~ ^(64m|512m|2g|4g|8g)$ ]] || usage "IOZONE_SIZE must be one of 64m 512m 2g 4g 8g"
IOZONE=${IOZONE:-}
COMPILEBENCH=${COMPILEBENCH:-}
[ -n "$COMPILEBENCH" ] && COMPILEBENCH=$(readlink -f "$COMPILEBENCH")
CB_TREES=${CB_TREES:-10}
[[ "$CB_TREES" =~ ^[1-9][0-9]{0,2}$ ]] || usage "CB_TREES must be a whole number 1..999"
[ -n "$IOZONE" ] && IOZONE=$(readlink -f "$IOZONE")  # it runs in its test directory

SEL=()
if [ -z "$ONLY" ]; then
    SEL=("${IDS[@]}")
else
    IFS=, read -r -a want <<<"$ONLY"
    for w in "${want[@]}"; do
        hit=0
        for id in "${IDS[@]}"; do [ "$id" = "$w" ] || [ "${id#"$w"-}" != "$id" ] && hit=1; done
        [ $hit = 1 ] || usage "unknown test '$w' in ONLY"
    done
    for id in "${IDS[@]}"; do
        for w in "${want[@]}"; do
            if [ "$id" = "$w" ] || [ "${id#"$w"-}" != "$id" ]; then SEL+=("$id"); break; fi
        done
    done
fi

# ---- what is there ----
[ -x "$SB" ] || lib_die "no storbench binary at $SB (run make, or set STORBENCH)"
command -v jq >/dev/null || lib_die "jq is missing (apt-get install jq)"
command -v setsid >/dev/null || lib_die "setsid is missing (util-linux)"
declare -A SKIP=()
for id in "${SEL[@]}"; do
    t=${TOOL[$id]}
    case "$t" in
        pgbench) [ -n "$LIB_PGBIN" ] && [ -x "$LIB_PGBIN/pgbench" ] ||
            SKIP[$id]="pgbench/PostgreSQL missing (apt-get install postgresql)" ;;
        dbench) command -v dbench >/dev/null || SKIP[$id]="dbench missing (apt-get install dbench)"
            [ -n "${SKIP[$id]:-}" ] || [ -r "$LIB_LOADFILE" ] || SKIP[$id]="$LIB_LOADFILE missing (dbench package)" ;;
        iozone) [ -n "$IOZONE" ] && [ -x "$IOZONE" ] ||
            SKIP[$id]="no IOzone binary (set IOZONE=/path/to/iozone; docs/fidelity.md, \"IOzone\")" ;;
        compilebench) [ -n "$COMPILEBENCH" ] && [ -r "$COMPILEBENCH" ] &&
            [ -r "$(dirname "$COMPILEBENCH")/dataset-unpatched" ] && command -v python3 >/dev/null ||
            SKIP[$id]="no compilebench (set COMPILEBENCH=/path/to/compilebench; docs/fidelity.md, \"Compile Bench\")" ;;
        fs_mark) command -v fs_mark >/dev/null || SKIP[$id]="fs_mark missing (apt-get install fsmark)" ;;
        *) command -v "$t" >/dev/null || SKIP[$id]="$t missing (apt-get install $t)" ;;
    esac
done

LIB_WORK=$(mktemp -d "$TARGET/fidelity.XXXXXX") || lib_die "cannot create a directory in $TARGET"
trap lib_cleanup EXIT
trap 'exit 130' INT TERM HUP
# As root, PostgreSQL runs as postgres: it must pass through to its cluster.
chmod 711 "$LIB_WORK"
if [ "$(id -u)" = 0 ] && [[ " ${SEL[*]} " == *" pgbench "* ]] && [ -z "${SKIP[pgbench]:-}" ] &&
    ! "${LIB_AS_PG[@]}" test -x "$LIB_WORK"; then
    SKIP[pgbench]="user postgres cannot reach $LIB_WORK (a parent of the target is not traversable)"
fi
for id in "${SEL[@]}"; do
    [ -n "${SKIP[$id]:-}" ] && echo "fidelity: skipping $id: ${SKIP[$id]}" >&2
done
need=$((1100 * 1024 * 1024))  # dd's and fs_mark's 1 GiB, and a margin
if [[ " ${SEL[*]} " == *" iozone-"* ]]; then  # IOzone's file, and a margin
    iz=$(($(numfmt --from=iec "${IOZONE_SIZE^^}") + 64 * 1048576))
    [ "$iz" -gt "$need" ] && need=$iz
fi
if [[ " ${SEL[*]} " == *" compilebench "* ]]; then  # the trees, and compilebench's set-up copies
    cb=$(((CB_TREES * 260 + 1024) * 1048576))
    [ "$cb" -gt "$need" ] && need=$cb
fi
avail=$(df -P -B1 "$LIB_WORK" | awk 'NR == 2 { print $4 }')
[ "${avail:-0}" -ge "$need" ] || lib_die "$TARGET has $((avail / 1048576)) MiB free, needs $((need / 1048576))"

lib_prefault_memory
PAIRS=${TSV:-$LIB_WORK/pairs.tsv}
printf 'round\ttest\tfigure\tunit\tbetter\tfirst\treference\tstorbench\tratio\n' >"$PAIRS" ||
    lib_die "cannot write $PAIRS"
SQL="$LIB_WORK/inserts.sql"
[[ " ${SEL[*]} " == *" sqlite "* ]] && lib_sqlite_sql "$SQL" "$SQLITE_COUNT"

# ---- one side of one pair: figures into $LIB_WORK/fig ----
measure() { # ID ref|sb DIR
    local id=$1 side=$2 dir=$3 fioargs sbfio
    case "$id" in
        fio-*)
            case "$id" in
                fio-randwrite) fioargs=(--rw=randwrite --ioengine=posixaio --iodepth=64); sbfio=type=randwrite,engine=posixaio,iodepth=64 ;;
                fio-write) fioargs=(--rw=write --ioengine=posixaio --iodepth=64); sbfio=type=write,engine=posixaio,iodepth=64 ;;
                fio-randread-io_uring) fioargs=(--rw=randread --ioengine=io_uring --iodepth=32); sbfio=type=randread,engine=io_uring,iodepth=32 ;;
                fio-randread-libaio) fioargs=(--rw=randread --ioengine=libaio --iodepth=32); sbfio=type=randread,engine=libaio,iodepth=32 ;;
            esac
            if [ "$side" = ref ]; then
                ref_fio "$dir" "${fioargs[@]}" --bs=4k --size="$FIO_SIZE" --direct=1 \
                    --ramp_time="$FIO_RAMP" --runtime="$FIO_RUNTIME" --time_based
            else
                sb_run "$dir" "fio:$sbfio,bs=4k,size=$FIO_SIZE,direct=yes,buffered=no,startdelay=0,ramp=$FIO_RAMP,runtime=$FIO_RUNTIME" &&
                    lib_fig iops "$(sb_secondary iops)"
            fi ;;
        dd)
            if [ "$side" = ref ]; then
                ref_dd "$dir" 2048k "$DD_COUNT"
            else
                sb_run "$dir" "dd:bs=2048k,count=$DD_COUNT,data=zero" &&
                    lib_fig direct-write "$(sb_mean 'Direct Write')" &&
                    lib_fig direct-read "$(sb_mean 'Direct Read')" &&
                    lib_fig read-cache "$(sb_mean 'Read Cache')"
            fi ;;
        fs-mark-*)
            local n=$FSMARK_FILES t=1 d=0
            [ "$id" = fs-mark-4x250 ] && { n=$((FSMARK_FILES / 4)); t=4; }
            [ "$id" = fs-mark-32dirs ] && { n=$((FSMARK_FILES * 2 / 5)); d=32; }
            if [ "$side" = ref ]; then
                ref_fsmark "$dir" "$n" "$t" "$d"
            else
                sb_run "$dir" "fs-mark:test=custom,files=$n,size=1M,threads=$t,dirs=$d" &&
                    lib_fig files_per_s "$(sb_mean)"
            fi ;;
        dbench-*)
            if [ "$side" = ref ]; then
                ref_dbench "$dir" 6 "$DBENCH_TIME"
            elif [ "$id" = dbench-client ]; then
                sb_run "$dir" "dbench:clients=6,time=$DBENCH_TIME,warmup=$DBENCH_WARMUP,loadfile=$LIB_LOADFILE" &&
                    lib_fig mb_per_s "$(sb_mean)"
            else # storbench's default stream, whatever it is today
                sb_run "$dir" "dbench:clients=6,time=$DBENCH_TIME,warmup=$DBENCH_WARMUP" &&
                    lib_fig mb_per_s "$(sb_mean)"
            fi ;;
        iozone-*)
            local rec=${id#iozone-} opts
            opts="record-size=$rec,file-size=$IOZONE_SIZE"
            if [ "$side" = ref ]; then
                ref_iozone "$dir" "$IOZONE_SIZE" "$rec"
            else # both of the profile's tests in one storbench run
                sb_run "$dir" "iozone:test=write,$opts" "iozone:test=read,$opts" &&
                    lib_fig write "$(sb_mean 'Write Performance')" &&
                    lib_fig read "$(sb_mean 'Read Performance')"
            fi ;;
        compilebench)
            if [ "$side" = ref ]; then
                ref_compilebench "$dir" "$CB_TREES"
            else
                sb_run "$dir" "compilebench:test=initial-create,trees=$CB_TREES" &&
                    lib_fig initial_create "$(sb_mean)"
            fi ;;
        postmark)
            if [ "$side" = ref ]; then
                ref_postmark "$dir" "$POSTMARK_TX"
            else
                sb_run "$dir" "postmark:transactions=$POSTMARK_TX" &&
                    lib_fig tps "$(sb_mean)" && lib_fig seconds "$(sb_secondary seconds_total)" &&
                    lib_fig_sched
            fi ;;
        sqlite)
            if [ "$side" = ref ]; then
                ref_sqlite "$dir" "$SQL"
            else
                sb_run "$dir" "sqlite:count=$SQLITE_COUNT" && lib_fig seconds "$(sb_mean)" &&
                    lib_fig_sched
            fi ;;
        pgbench)
            if [ "$side" = ref ]; then
                ref_pgbench "$dir" "$PG_SCALE" 4 2 "$PG_TIME"
            else
                sb_run "$dir" "pgbench:scale=$PG_SCALE,duration=$PG_TIME,clients=4,threads=2,mode=rw" &&
                    lib_fig tps "$(sb_mean)"
            fi ;;
    esac
}

# fig KEY: the value of KEY in the last measurement, or "" when missing.
fig() { awk -v k="$1" '$1 == k && $2 ~ /^[0-9.eE+-]+$/ && $2 > 0 { print $2; exit }' "$LIB_WORK/fig"; }

# ---- header ----
mnt=$(findmnt -n -o FSTYPE,SOURCE,OPTIONS -T "$TARGET" | awk 'NR == 1 { print $1 " on " $2 ", " $3 }')
commit=$(git -C "$LIB_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -n "$(git -C "$LIB_ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit+changes"
vers="dd $(dd --version | awk 'NR == 1 { print $NF }')"
command -v fio >/dev/null && vers="$vers, $(fio --version)"
command -v fs_mark >/dev/null && vers="$vers, fs_mark $(dpkg-query -W -f '${Version}' fsmark 2>/dev/null)"
command -v dbench >/dev/null && vers="$vers, dbench $(dbench --help 2>&1 | awk '/^dbench version/ { print $3; exit }')"
command -v postmark >/dev/null && vers="$vers, postmark $(dpkg-query -W -f '${Version}' postmark 2>/dev/null)"
command -v sqlite3 >/dev/null && vers="$vers, sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
[ -n "$LIB_PGBIN" ] && vers="$vers, $("$LIB_PGBIN/pgbench" --version)"
[ -n "$IOZONE" ] && [ -x "$IOZONE" ] &&
    vers="$vers, iozone $("$IOZONE" -v | awk '/Revision/ { print $3; exit }')"
[ -n "$COMPILEBENCH" ] && [ -r "$COMPILEBENCH" ] &&
    vers="$vers, compilebench $(awk -F'"' '/^VERSION/ { print $2; exit }' "$COMPILEBENCH") ($(python3 --version))"
echo "# fidelity: $TARGET ($mnt), $ROUNDS round(s), $(date -u '+%Y-%m-%d %H:%M UTC'), storbench $("$SB" --version | awk '{ print $NF }') commit $commit"
echo "# references: $vers"
echo "# parameters: dd bs=2048k count=$DD_COUNT; fio 4k $FIO_SIZE direct ramp ${FIO_RAMP}s runtime ${FIO_RUNTIME}s;" \
    "fs_mark $FSMARK_FILES x 1MiB, 4 x $((FSMARK_FILES / 4)), $((FSMARK_FILES * 2 / 5)) in 32 dirs;" \
    "dbench 6 clients ${DBENCH_TIME}s (warm-up ${DBENCH_WARMUP}s); postmark $POSTMARK_TX tx;" \
    "sqlite 3 x $SQLITE_COUNT inserts; pgbench scale $PG_SCALE, 4 clients, 2 threads, ${PG_TIME}s;" \
    "iozone -e -s $IOZONE_SIZE -i0 -i1, records 4k 64k 1m; compilebench -i $CB_TREES -r 0"

# ---- the rounds ----
START=$(date +%s)
for ((r = 1; r <= ROUNDS; r++)); do
    t0=$(date +%s)
    for id in "${SEL[@]}"; do
        if [ -n "${SKIP[$id]:-}" ]; then
            [ $r = 1 ] && for f in ${FIGS[$id]}; do
                printf '%s\t%s\t%s\t%s\t%s\t-\t-\t-\tskipped\n' - "$id" "${f%%:*}" "${f#*:}" \
                    "$([ "${f#*:}" = s ] && echo lower || echo higher)" >>"$PAIRS"
            done
            continue
        fi
        # Odd rounds: the reference first; even rounds: storbench first.
        order="ref sb"
        [ $((r % 2)) = 0 ] && order="sb ref"
        declare -A got=()
        for side in $order; do
            rm -f "$LIB_WORK/fig"
            touch "$LIB_WORK/fig"
            sync   # the previous run's dirty data is not this run's to write
            LIB_LAST_OUT=""
            measure "$id" "$side" "$LIB_WORK/$side"
            rc=$?
            rm -rf "${LIB_WORK:?}/$side"
            missing=""
            for f in ${FIGS[$id]}; do
                got[$side:${f%%:*}]=$(fig "${f%%:*}")
                [ -n "${got[$side:${f%%:*}]}" ] || missing="$missing ${f%%:*}"
            done
            if [ $rc != 0 ] || [ -n "$missing" ]; then
                what=reference; [ "$side" = sb ] && what=storbench
                if [ $rc != 0 ]; then
                    echo "fidelity: round $r $id: the $what run failed" >&2
                else
                    echo "fidelity: round $r $id: the $what run gave no figure for$missing" >&2
                fi
                # What the command said last (its output went to a file).
                [ -f "$LIB_LAST_OUT" ] && tail -n 3 "$LIB_LAST_OUT" | sed 's/^/    /' >&2
            fi
        done
        line="round $r/$ROUNDS $id ($([ "$order" = "ref sb" ] && echo reference || echo storbench) first):"
        for f in ${FIGS[$id]}; do
            k=${f%%:*} u=${f#*:}
            a=${got[ref:$k]} b=${got[sb:$k]}
            if [ -z "$a" ]; then ratio=failed-reference
            elif [ -z "$b" ]; then ratio=failed-storbench
            else ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')
            fi
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$id" "$k" "$u" \
                "$([ "$u" = s ] && echo lower || echo higher)" "${order%% *}" "${a:--}" "${b:--}" \
                "$ratio" >>"$PAIRS"
            line="$line $k $(printf '%.6g vs %.6g' "${a:-0}" "${b:-0}") $u ($ratio)"
        done
        unset got
        echo "$line" >&2
    done
    echo "fidelity: round $r took $(($(date +%s) - t0)) s" >&2
done

echo
lib_summary "$PAIRS"
echo
echo "ratio: geometric mean over the rounds of storbench / reference (raw values; for seconds, lower"
echo "is better, so a ratio under 1 means storbench took less time); min, max: of the per-round ratios;"
echo "rounds: pairs measured (+N! = rounds where a run failed). $ROUNDS round(s) in $(($(date +%s) - START)) s."
for id in "${SEL[@]}"; do
    [ -n "${SKIP[$id]:-}" ] && echo "skipped: $id (${SKIP[$id]})"
done
exit 0
