#!/bin/bash
# mdtest-vs-reference — storbench's mdtest test against hpc/ior's mdtest, phase by
# phase (create, stat, read, delete), on the same target with the same ranks and
# IO500's parameters (easy: -n N -u -L -F -N 1; hard: -n N -t -F -w 3901 -e 3901
# -N 1), in alternating order, printing each round's ratio storbench / mdtest and,
# per phase, the geometric mean, least and most ratio over the rounds. Find: IO500's pfind
# is not part of hpc/ior; with FIND=1 the reference is GNU find with IO500's predicates
# (-newer the timestamp file, -size 3901c or 0c, -name '*01*') over a tree mdtest -C made
# (then removed with mdtest -r), serial, so compare it with NP=1: the rate is the files
# in the tree over find's wall time, storbench's find figure (files checked / time).
# mdtest is not in Debian: it is built from its public source tree outside the
# project (autotools, Open MPI from Debian), in $WORK.
#
#   bench/mdtest-vs-reference.sh [easy|hard] [ROUNDS]      (easy, 3)
#
# Environment: TARGET=/var/tmp (the directory both work in), FILES=20000 (per rank),
# NP=1 (ranks, mpirun --oversubscribe), WORK=/tmp/mdtest-ref (the ior tree and build),
# IOR_SRC (an ior source tree to copy instead of cloning https://github.com/hpc/ior),
# STORBENCH=build/storbench. Exit: 0, 1 when something cannot be built or run,
# 2 on bad arguments.
set -u
LAYOUT=${1:-easy}
ROUNDS=${2:-3}
TARGET=${TARGET:-/var/tmp}
FILES=${FILES:-20000}
NP=${NP:-1}
WORK=${WORK:-/tmp/mdtest-ref}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$HERE/build/storbench}

usage() { echo "mdtest-vs-reference: $* (usage: bench/mdtest-vs-reference.sh [easy|hard] [ROUNDS])" >&2; exit 2; }
die() { echo "mdtest-vs-reference: $*" >&2; exit 1; }
case "$LAYOUT" in easy | hard) ;; *) usage "layout must be easy or hard, not '$LAYOUT'" ;; esac
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || usage "ROUNDS must be a positive number"
[[ "$FILES" =~ ^[1-9][0-9]*$ ]] || usage "FILES must be a positive number"
[[ "$NP" =~ ^[1-9][0-9]*$ ]] || usage "NP must be a positive number"
[ -d "$TARGET" ] || usage "TARGET=$TARGET is not a directory"
[ -x "$SB" ] || die "$SB not built (make)"
for t in mpirun mpicc autoreconf make jq; do command -v $t >/dev/null || die "$t missing (scripts/bootstrap; autoconf automake libtool)"; done

# ---- mdtest, built once in $WORK ----
MDTEST=$WORK/ior/src/mdtest
if [ ! -x "$MDTEST" ]; then
    mkdir -p "$WORK" || die "cannot make $WORK"
    rm -rf "$WORK/ior"
    if [ -n "${IOR_SRC:-}" ]; then
        cp -a "$IOR_SRC" "$WORK/ior" || die "cannot copy $IOR_SRC"
    else
        git clone -q --depth 1 https://github.com/hpc/ior "$WORK/ior" || die "cannot clone hpc/ior"
    fi
    (cd "$WORK/ior" && ./bootstrap && ./configure --quiet && make -j2 -s) >"$WORK/build.log" 2>&1 ||
        die "building mdtest failed (see $WORK/build.log)"
fi

MPI=(mpirun -q --oversubscribe -np "$NP")
[ "$(id -u)" = 0 ] && MPI+=(--allow-run-as-root)
if [ "$LAYOUT" = easy ]; then REF_ARGS=(-u -L -F -N 1); else REF_ARGS=(-t -F -w 3901 -e 3901 -N 1); fi
SCRATCH=$(mktemp -d "$TARGET/mdtest-ref.XXXXXX") || die "cannot make a directory in $TARGET"
export XDG_DATA_HOME=$SCRATCH/xdg
trap 'rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM
PHASES=(create stat read delete)
REF_NAMES=("File creation" "File stat" "File read" "File removal")
SB_NAMES=(Create Stat Read Delete)
SB_PHASES=create,stat,read,delete
if [ "${FIND:-0}" = 1 ]; then
    PHASES+=(find); SB_NAMES+=(Find); SB_PHASES=create,find,stat,read,delete
    command -v find >/dev/null || die "find missing"
fi
NPH=${#PHASES[@]}

# mdtest's SUMMARY rate table: the Max column of a phase's line (one iteration: all equal).
ref_run() {
    rm -rf "$SCRATCH/ref"
    "${MPI[@]}" "$MDTEST" -n "$FILES" "${REF_ARGS[@]}" -i 1 -d "$SCRATCH/ref" >"$SCRATCH/ref.out" 2>&1 ||
        die "mdtest failed: $(tail -3 "$SCRATCH/ref.out")"
    for i in 0 1 2 3; do
        REF[$i]=$(awk -v n="${REF_NAMES[$i]}" '/SUMMARY rate/ {s = 1} s && index($0, n) { print $(NF - 3); exit }' "$SCRATCH/ref.out")
    done
    [ "$NPH" = 5 ] && ref_find
    return 0
}
# GNU find over the tree of an mdtest -C (create only), IO500's predicates; then mdtest -r
ref_find() {
    local size=0
    [ "$LAYOUT" = hard ] && size=3901
    rm -rf "$SCRATCH/ref"; mkdir -p "$SCRATCH/ref"
    touch -d '-1 sec' "$SCRATCH/ts"
    "${MPI[@]}" "$MDTEST" -C -n "$FILES" "${REF_ARGS[@]}" -i 1 -d "$SCRATCH/ref" >"$SCRATCH/refc.out" 2>&1 ||
        die "mdtest -C failed: $(tail -3 "$SCRATCH/refc.out")"
    local t0 t1 n
    t0=$(date +%s%N)
    find "$SCRATCH/ref" -newer "$SCRATCH/ts" -size ${size}c -name '*01*' >"$SCRATCH/found" || die "find failed"
    t1=$(date +%s%N)
    n=$(find "$SCRATCH/ref" -type f | wc -l)
    REF[4]=$(awk -v n="$n" -v t=$((t1 - t0)) 'BEGIN { printf "%.1f", n / (t / 1e9) }')
    "${MPI[@]}" "$MDTEST" -r -n "$FILES" "${REF_ARGS[@]}" -i 1 -d "$SCRATCH/ref" >"$SCRATCH/refr.out" 2>&1 ||
        die "mdtest -r failed: $(tail -3 "$SCRATCH/refr.out")"
}
# --no-drop-caches: mdtest drops nothing (nor does IO500 by default); run's sync and
# drop_caches before a run would leave storbench's phases with cold metadata caches
# (ext4's bitmaps and inode tables, the slab caches) that mdtest's never have
sb_run() {
    local id="r$1"
    "${MPI[@]}" "$SB" run mdtest -o layout="$LAYOUT" -o files="$FILES" -o phases="$SB_PHASES" \
        --target "$SCRATCH" --result cmp -i "$id" -n 1 --exact-runs --no-drop-caches >"$SCRATCH/sb.out" 2>&1 ||
        die "storbench failed: $(tail -3 "$SCRATCH/sb.out")"
    for ((i = 0; i < NPH; i++)); do
        SBV[$i]=$(jq --arg id "$id" --arg p "Phase: ${SB_NAMES[$i]}" \
            '[.results[] | select(.description | contains($p)) | .entries[] | select(.identifier == $id) | .mean][0]' \
            "$XDG_DATA_HOME/storbench/results/cmp.json")
    done
}

echo "mdtest-vs-reference: $LAYOUT, $FILES files per rank, $NP rank(s), target $TARGET, $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)"
echo "round order phase storbench_ops_s mdtest_ops_s ratio"
declare -A RATIOS
for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then order="mdtest-first"; ref_run; sb_run "$r"; else order="storbench-first"; sb_run "$r"; ref_run; fi
    for ((i = 0; i < NPH; i++)); do
        ratio=$(awk -v a="${SBV[$i]}" -v b="${REF[$i]}" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }')
        RATIOS[$i]="${RATIOS[$i]:-} $ratio"
        printf '%d %s %s %.0f %.0f %s\n' "$r" "$order" "${PHASES[$i]}" "${SBV[$i]}" "${REF[$i]}" "$ratio"
    done
done
# per phase over the rounds: the geometric mean of the ratios (a ratio's mean), the least, the
# most and the median (which one disturbed round on a shared machine does not move)
echo "phase geomean min max median (storbench / mdtest, $ROUNDS rounds, load $(cut -d' ' -f1 /proc/loadavg) at the end)"
for ((i = 0; i < NPH; i++)); do
    med=$(echo "${RATIOS[$i]}" | tr ' ' '\n' | sed '/^$/d' | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    echo "${RATIOS[$i]}" | awk -v p="${PHASES[$i]}" -v m="$med" '{ s = 0; lo = $1; hi = $1
        for (k = 1; k <= NF; k++) { s += log($k); if ($k < lo) lo = $k; if ($k > hi) hi = $k }
        printf "%s %.3f %.3f %.3f %.3f\n", p, exp(s / NF), lo, hi, m }'
done
