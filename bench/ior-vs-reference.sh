#!/bin/bash
# ior-vs-reference — `storbench ior` against hpc/ior's ior, write and read, on the
# same target with the same ranks and the same flags, in IO500's two layouts:
#
#   easy: -F -t EASY_T -b EASY_B            (a file per rank, large transfers)
#   hard: -t 47008 -b 47008 -s HARD_S       (one shared file, interleaved by rank)
#
# both with IO500's -w -r -C -Q 1 -g -e (write, then read the next rank's data,
# barriers around open and close, fsync at close). Rounds alternate which tool
# goes first; each round prints both figures (MiB/s) and the ratio storbench /
# ior, and the end the geometric mean, minimum and maximum ratio per layout and
# phase. ior is not in Debian: it is built from its public source tree outside
# the project (autotools, Open MPI from Debian) in $WORK.
#
#   bench/ior-vs-reference.sh [easy|hard|both] [ROUNDS]      (both, 5)
#
# Environment: TARGET=/var/tmp (the directory both work in), NP=4 (ranks, mpirun
# --oversubscribe), EASY_T=1m EASY_B=64m HARD_S=2000 (per rank), REPS=1 (IOR's -i: each
# tool's figure is the best of its REPS repetitions, IOR's Max column, which on a shared
# machine keeps the repetition the other processes disturbed least), WORK=/tmp/ior-ref
# (the ior tree and build), IOR_GIT (what to clone, default https://github.com/hpc/ior;
# a local clone or mirror works), STORBENCH=./storbench. Exit: 0, 1 when something
# cannot be built or run, 2 on bad arguments.
set -u
WHICH=${1:-both}
ROUNDS=${2:-5}
TARGET=${TARGET:-/var/tmp}
NP=${NP:-4}
EASY_T=${EASY_T:-1m}
EASY_B=${EASY_B:-64m}
HARD_S=${HARD_S:-2000}
REPS=${REPS:-1}
WORK=${WORK:-/tmp/ior-ref}
IOR_GIT=${IOR_GIT:-https://github.com/hpc/ior}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$HERE/storbench}

usage() { echo "ior-vs-reference: $* (usage: bench/ior-vs-reference.sh [easy|hard|both] [ROUNDS])" >&2; exit 2; }
die() { echo "ior-vs-reference: $*" >&2; exit 1; }
case "$WHICH" in easy) LAYOUTS=(easy) ;; hard) LAYOUTS=(hard) ;; both) LAYOUTS=(easy hard) ;;
*) usage "layout must be easy, hard or both, not '$WHICH'" ;; esac
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || usage "ROUNDS must be a positive number"
[[ "$NP" =~ ^[1-9][0-9]*$ ]] || usage "NP must be a positive number"
[[ "$HARD_S" =~ ^[1-9][0-9]*$ ]] || usage "HARD_S must be a positive number"
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || usage "REPS must be a positive number"
[ -d "$TARGET" ] || usage "TARGET=$TARGET is not a directory"
[ -x "$SB" ] || die "$SB not built (make)"
[ -x "$(dirname "$SB")/storbench-mpi" ] || die "$(dirname "$SB")/storbench-mpi not built (make, with mpicc)"
for t in mpirun mpicc autoreconf make awk; do command -v $t >/dev/null || die "$t missing (scripts/bootstrap; autoconf automake libtool)"; done

# ---- ior, built once in $WORK ----
IOR=$WORK/ior/src/ior
if [ ! -x "$IOR" ]; then
    mkdir -p "$WORK" || die "cannot make $WORK"
    rm -rf "$WORK/ior"
    git clone -q "$IOR_GIT" "$WORK/ior" || die "cannot clone $IOR_GIT"
    (cd "$WORK/ior" && ./bootstrap && ./configure --quiet && make -j2 -s) >"$WORK/build.log" 2>&1 ||
        die "building ior failed (see $WORK/build.log)"
fi
IOR_VERSION=$(cd "$WORK/ior" && git log -1 --format=%h 2>/dev/null || echo unknown)

MPI=(mpirun -q --oversubscribe -np "$NP")
[ "$(id -u)" = 0 ] && MPI+=(--allow-run-as-root)
SCRATCH=$(mktemp -d "$TARGET/ior-ref.XXXXXX") || die "cannot make a directory in $TARGET"
trap 'rm -rf "$SCRATCH"' EXIT
trap 'exit 130' INT TERM
COMMON=(-w -r -C -Q 1 -g -e -i "$REPS")

flags() { if [ "$1" = easy ]; then echo "-F -t $EASY_T -b $EASY_B"; else echo "-t 47008 -b 47008 -s $HARD_S"; fi; }

# ior: the Max(MiB) column of its "Summary of all tests" rows (the best repetition)
ref_run() {
    # shellcheck disable=SC2046
    "${MPI[@]}" "$IOR" "${COMMON[@]}" $(flags "$1") -o "$SCRATCH/$1" >"$SCRATCH/ref.out" 2>&1 ||
        die "ior failed: $(tail -3 "$SCRATCH/ref.out")"
    REF_W=$(awk '/^Summary of all tests/ {s = 1} s && $1 == "write" { print $2; exit }' "$SCRATCH/ref.out")
    REF_R=$(awk '/^Summary of all tests/ {s = 1} s && $1 == "read" { print $2; exit }' "$SCRATCH/ref.out")
}
# storbench: its "Max Write:" and "Max Read:" lines
sb_run() {
    # shellcheck disable=SC2046
    "${MPI[@]}" "$SB" ior "${COMMON[@]}" $(flags "$1") -o "$SCRATCH/$1" >"$SCRATCH/sb.out" 2>&1 ||
        die "storbench failed: $(tail -3 "$SCRATCH/sb.out")"
    SB_W=$(awk '/^Max Write:/ { print $3 }' "$SCRATCH/sb.out")
    SB_R=$(awk '/^Max Read:/ { print $3 }' "$SCRATCH/sb.out")
}

echo "ior-vs-reference: ${LAYOUTS[*]}, $NP ranks, target $TARGET ($(df -T "$TARGET" | awk 'NR == 2 {print $2}')), ior at $IOR_VERSION, $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S)"
echo "easy: $(flags easy); hard: $(flags hard); both: ${COMMON[*]}"
echo "layout round order phase storbench_MiB_s ior_MiB_s ratio"
declare -A LOGS MIN MAX ALL
for L in "${LAYOUTS[@]}"; do
    for ((r = 1; r <= ROUNDS; r++)); do
        if ((r % 2)); then order="ior-first"; ref_run "$L"; sb_run "$L"; else order="storbench-first"; sb_run "$L"; ref_run "$L"; fi
        for ph in write read; do
            if [ $ph = write ]; then a=$SB_W b=$REF_W; else a=$SB_R b=$REF_R; fi
            ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }')
            k="$L-$ph"
            LOGS[$k]=$(awk -v s="${LOGS[$k]:-0}" -v x="$ratio" 'BEGIN { print s + ((x > 0) ? log(x) : -99) }')
            MIN[$k]=$(awk -v m="${MIN[$k]:-1e9}" -v x="$ratio" 'BEGIN { print (x < m) ? x : m }')
            MAX[$k]=$(awk -v m="${MAX[$k]:-0}" -v x="$ratio" 'BEGIN { print (x > m) ? x : m }')
            ALL[$k]="${ALL[$k]:-} $ratio"
            printf '%s %d %s %s %.1f %.1f %s\n' "$L" "$r" "$order" "$ph" "$a" "$b" "$ratio"
        done
    done
done
# the median besides: on a shared machine one disturbed round moves the mean, not the median
echo "layout phase geomean_ratio min max median (load $(cut -d' ' -f1-3 /proc/loadavg) at $(date -u +%H:%M:%S))"
for L in "${LAYOUTS[@]}"; do
    for ph in write read; do
        k="$L-$ph"
        med=$(echo "${ALL[$k]}" | tr ' ' '\n' | sed '/^$/d' | sort -g |
            awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
        awk -v l="$L" -v p="$ph" -v s="${LOGS[$k]}" -v n="$ROUNDS" -v lo="${MIN[$k]}" -v hi="${MAX[$k]}" -v m="$med" \
            'BEGIN { printf "%s %s %.3f %.3f %.3f %.3f\n", l, p, exp(s / n), lo, hi, m }'
    done
done
