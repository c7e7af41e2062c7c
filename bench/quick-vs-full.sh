#!/bin/bash
# bench/quick-vs-full.sh TARGET [ROUNDS] — does each test's --quick scale measure
# the same thing as its full scale? Runs every test of the quick suite on TARGET
# once at --quick (one run, pooled to 3 s as `run quick` does) and once at full
# scale (one run), alternating which goes first from round to round, and prints
# per figure the ratio quick / full, with the geometric mean, min and max over
# the rounds. A ratio within 0.8–1.25 means the quick figure stands for the full
# one on this target.
#
# "Full" is the seed's scale, except where a run at that scale takes too long or
# does not fit, and then the comparison is with a longer run of the same work
# (each shortening is listed in docs/workloads.md, "The quick scale"):
#   dd            count=512 (1 GiB, the seed's)              — exact (also the quick count)
#   fio (2)       1 GiB, startdelay 5, ramp 5, runtime 20     — exact
#   iozone (2)    file-size $QVF_IOZONE (default 8g)          — exact by default
#   fs-mark       1000 files                                  — exact
#   fs-mark 4thr  4 x 1250 files (the seed: 4 x 5000, 20 GB)  — 1.25x the quick count
#   fs-mark 32dir 4000 files                                  — exact
#   postmark      100,000 transactions (the seed: 250,000)    — 5x the quick count
#   compilebench  10 trees of the full tree                   — exact
#   dbench        60 s after a 20 s warm-up (the seed: 600 s after 120 s)
#   sqlite        2,500 inserts x 3                           — exact; its figure is the
#                 seconds of the whole job, so the quick figure (250 x 3) is shown
#                 multiplied by 10, the ratio of the work (the column "x")
#   pgbench       the quick scale (1), 60 s (the seed's duration). The seed's
#                 On-Disk scale (RAM x 0.3: ~7000, ~110 GB) is a different data
#                 size and is NOT compared: the quick pgbench is an in-memory run.
#
# QVF_TESTS="dd sqlite ..." limits the tests (names as in the table below).
# Writes only under TARGET (a private directory, removed at the end).
set -u
LIB_NAME=quick-vs-full
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$ROOT/storbench}
TARGET=${1:?usage: bench/quick-vs-full.sh TARGET [ROUNDS]}
ROUNDS=${2:-1}
IOZ=${QVF_IOZONE:-8g}
export LC_ALL=C
[ -x "$SB" ] || { echo "$LIB_NAME: $SB: build storbench first (make)" >&2; exit 1; }
[ -d "$TARGET" ] || { echo "$LIB_NAME: $TARGET: not a directory" >&2; exit 2; }
command -v jq >/dev/null || { echo "$LIB_NAME: needs jq" >&2; exit 1; }
W=$(mktemp -d "$TARGET/quick-vs-full.XXXXXX") || exit 1
chmod 711 "$W" # the pgbench server (user postgres) must pass through
CHILD=""
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
cleanup() {
    [ -n "$CHILD" ] && kill "$CHILD" 2>/dev/null
    [ -n "$LIB_CHILD" ] && kill -TERM -- -"$LIB_CHILD" 2>/dev/null
    wait 2>/dev/null
    [ -n "$LIB_PREFAULT" ] && rm -f "$LIB_PREFAULT"
    lib_release_page_reporting
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
lib_prefault_memory

# name | test and options common to both | options of the full run (not --quick)
#      | factor the quick figure is multiplied by (work ratio, for figures that are times)
SPECS=(
    "dd|dd|-o count=512"
    "fio-randwrite|fio -o type=randwrite|-o size=1g -o startdelay=5 -o ramp=5 -o runtime=20"
    "fio-write|fio -o type=write|-o size=1g -o startdelay=5 -o ramp=5 -o runtime=20"
    "iozone-read|iozone -o test=read|-o file-size=$IOZ"
    "iozone-write|iozone -o test=write|-o file-size=$IOZ"
    "fs-mark-1000|fs-mark -o test=1000-files|"
    "fs-mark-4thr|fs-mark -o test=5000-files-4-threads|@fsm4"
    "fs-mark-32dirs|fs-mark -o test=4000-files-32-dirs|"
    "dbench|dbench -o clients=6|-o time=60 -o warmup=20"
    "compilebench|compilebench -o test=initial-create|"
    "postmark|postmark|-o transactions=100000"
    "sqlite|sqlite||10"
    "pgbench|pgbench -o scaling=on-disk -o test=normal -o mode=rw|-o scale=1 -o duration=60"
)

# One storbench run; its figures as "LABEL<TAB>MEAN" lines in $W/fig.
one() { # quick|full COMMON FULL
    local scale=$1 common=$2 full=$3 extra=()
    if [ "$scale" = quick ]; then
        extra=(--quick)
    elif [ "$full" = @fsm4 ]; then
        # the seed's 4 x 5000 files are 20 GB: 4 x 1250 of the same files (custom test)
        common="fs-mark -o test=custom -o files=1250 -o threads=4 -o size=1M"
    else
        # shellcheck disable=SC2206
        extra=($full)
    fi
    rm -f "$W/r.json"
    # shellcheck disable=SC2086
    "$SB" run $common "${extra[@]}" -t "$W" -n 1 --exact-runs -r "$W/r.json" -i x \
        >"$W/log" 2>&1 &
    CHILD=$!
    wait "$CHILD"
    local rc=$?
    CHILD=""
    if [ $rc -ne 0 ] || [ ! -s "$W/r.json" ]; then
        echo "$LIB_NAME: $common ($scale) failed: $(tail -1 "$W/log")" >&2
        : >"$W/fig"
        return 1
    fi
    # The measure's label is the end of the option line ("Test: Direct Write"); pair by order.
    jq -r '.results[] | [(.description | sub(" - Scale: Quick$"; "")), (.entries[0].mean|tostring),
           ([.entries[0].secondary[]? | select(.name == "repetitions") | .value] | first // 1 | tostring)]
           | @tsv' "$W/r.json" | awk -F'\t' '{ n = split($1, p, " - "); print p[n] "\t" $2 "\t" $3 }' >"$W/fig"
}

printf '%s\n' "quick vs full on $TARGET ($(stat -f -c %T "$TARGET")), $ROUNDS round(s), $(date -u +%FT%TZ)"
printf '%-15s %-26s %12s %12s %7s %5s %3s\n' test figure quick full q/full reps x
: >"$W/all"
for ((round = 1; round <= ROUNDS; round++)); do
    for spec in "${SPECS[@]}"; do
        IFS='|' read -r name common full factor <<<"$spec"
        factor=${factor:-1}
        if [ -n "${QVF_TESTS:-}" ] && ! grep -qw -- "$name" <<<"$QVF_TESTS"; then continue; fi
        # alternate which scale goes first
        if (( round % 2 )); then order="quick full"; else order="full quick"; fi
        for scale in $order; do
            one "$scale" "$common" "$full" || continue 2
            cp "$W/fig" "$W/$scale"
        done
        paste "$W/quick" "$W/full" | while IFS=$'\t' read -r label q reps _ f _; do
            q=$(awk -v q="$q" -v x="$factor" 'BEGIN { printf "%.4f", q * x }')
            r=$(awk -v q="$q" -v f="$f" 'BEGIN { if (f > 0) printf "%.3f", q / f; else print "nan" }')
            printf '%-15s %-26s %12.2f %12.2f %7s %5s %3s\n' "$name" "${label:0:26}" "$q" "$f" "$r" "$reps" "$factor"
            printf '%s\t%s\t%s\n' "$name" "$label" "$r" >>"$W/all"
        done
    done
done
if [ "$ROUNDS" -gt 1 ]; then
    echo
    printf '%-15s %-26s %7s %7s %7s\n' test figure geomean min max
    awk -F'\t' '$3 > 0 { k = $1 "\t" $2; if (!(k in n)) order[++m] = k; n[k]++; s[k] += log($3)
                         if (!(k in lo) || $3 < lo[k]) lo[k] = $3; if (!(k in hi) || $3 > hi[k]) hi[k] = $3 }
                END { for (i = 1; i <= m; i++) { k = order[i]; split(k, p, "\t")
                      printf "%-15s %-26s %7.3f %7.3f %7.3f\n", p[1], substr(p[2], 1, 26), exp(s[k] / n[k]), lo[k], hi[k] } }' "$W/all"
fi
