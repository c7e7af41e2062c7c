#!/bin/bash
# lab-same-figures — does the device lab (`scenario run --vm --vm-time virtual`) give the
# same figures whatever the host does? Runs one configuration's battery in a guest several
# times, on the host as it is and with both host cores busy (stress-ng --cpu 2 beside the
# guest for its whole run), and compares every figure of every test across the runs: under
# virtual time each figure is the guest's instructions and the models' delays, so the
# host's speed must not show (docs/scenarios.md, "Virtual time"). Too slow for make check
# (a guest takes minutes under TCG): a bench script.
#
#   bench/lab-same-figures.sh INI SECTION [SCENARIO OPTIONS]   e.g.
#   bench/lab-same-figures.sh examples/seed001-btrfs.ini "Single Disk" -s dbench:time=5,warmup=2
#   bench/lab-same-figures.sh --compare A.json B.json ...      only the comparison
#
# Without -s, the battery is bench/seed-shape.sh's for seed 001 (three fs-mark runs,
# dbench, sqlite). Environment:
#   PLAN="idle idle stress"  one run each, in this order ("stress": stress-ng --cpu 2 runs
#                            beside the guest for its whole run; "idle": the host as it is,
#                            other work included)
#   STRESS_NICE=0            stress-ng's niceness: at 0 its two workers take both cores from
#                            everything niced (a guest niced 19 weighs 1/68 of a worker), the
#                            hardest host for the guest's timing; at 19 (the old default) the
#                            guest still got most of a core
#   STRESS_LOAD=100          stress-ng's --cpu-load: each worker busy that % of the time (below
#                            100 a guest niced 19 gets the rest, and a run ends in minutes)
#   TOL=1                    the largest spread allowed, in % of the smallest figure
#   KEEP=DIR                 the result files (run1.json ...) and each run's output, every
#                            line stamped with the host's time (run1.log ...), go there and stay
#   RAM=0                    the file's host-bound-check is dropped (1: kept: in the lab `yes` is
#                            the vCPU busy share, no twin; twin: set to twin, ram twins run)
#   TRACE9P=1                QEMU logs the guest's 9p requests to the host (its v9fs_* trace
#                            events, through a wrapper named by STORBENCH_QEMU), and each run
#                            says how many came while storbench ran in the guest, from the
#                            console's "in guest RAM" line to its last "lab:" line: under
#                            virtual time each is a wait on the host, which moves the figures
#                            (0: no trace)
#   IMAGES=/var/tmp IMAGE_SIZE=1G NICE=10 STORBENCH=./storbench
# Prints per figure (the test, its description, the configuration) each run's figure and
# the spread, and for the secondary figures (latencies, counts) the widest spreads.
# Exit: 0 every figure within TOL, 1 a run failed, 3 a figure outside TOL, 2 bad arguments.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${STORBENCH:-$ROOT/storbench}
TOL=${TOL:-1}
usage() { echo "lab-same-figures: $*" >&2; exit 2; }

# compare FILE...: every primary figure across the files, then the widest secondary spreads.
compare() {
    local f docs=()
    for f in "$@"; do
        docs+=("$("$SB" show "$f" --format json)") || { echo "lab-same-figures: cannot read $f" >&2; return 1; }
    done
    printf '%s\n' "${docs[@]}" | jq -s -r --argjson tol "$TOL" '
      def figs: [.results[] as $r | $r.entries[] |
          {key: "\($r.title) [\($r.description // "")] \(.identifier)", v: .mean,
           sec: [(.secondary // [])[] | select(.value | type == "number") | {name, v: .value}]}];
      def spread: (map(select(. != null)) | if length < 2 or min <= 0 then null
                   else (max - min) / min * 100 end);
      (map(figs)) as $runs | ($runs[0] | map(.key)) as $keys |
      [ $keys[] as $k | [ $runs[] | map(select(.key == $k)) | first ] as $e |
        { key: $k, vals: [ $e[] | .v ], s: ([ $e[] | .v ] | spread),
          sec: [ $e[0].sec[].name as $n | { name: $n,
                 vals: [ $e[] | (.sec // [])[] | select(.name == $n) | .v ] } | . + {s: (.vals | spread)} ] } ] as $all |
      ( $all[] | "\(.key): \(.vals | map(tostring) | join(" | "))  spread \(if .s == null then "-" else (.s * 1000 | round / 1000 | tostring) + " %" end)\(if .s != null and .s > $tol then "  OUTSIDE \($tol) %" else "" end)" ),
      "",
      "widest secondary spreads:",
      ( [ $all[] | .key as $k | .sec[] | select(.s != null and .s > 0) | . + {key: $k} ] | sort_by(-.s) | .[:12][]
        | "  \(.key) \(.name): \(.vals | map(tostring) | join(" | "))  spread \(.s * 1000 | round / 1000) %" ),
      "",
      "figures within \($tol) % across \($runs | length) runs: \([ $all[] | select(.s != null and .s <= $tol) ] | length) of \([ $all[] | select(.s != null) ] | length)",
      (if [ $all[] | select(.s != null and .s > $tol) ] | length > 0 then "RESULT: differ" else "RESULT: same" end)' \
      | tee "${CMP_OUT:-/dev/null}"
}

if [ "${1:-}" = --compare ]; then
    shift
    [ $# -ge 2 ] || usage "--compare needs two result files or more"
    c=$(mktemp)
    CMP_OUT=$c compare "$@" || { rm -f "$c"; exit 1; }
    grep -q '^RESULT: same' "$c"; rc=$?
    rm -f "$c"
    [ "$rc" = 0 ] || exit 3
    exit 0
fi
[ $# -ge 2 ] || usage "usage: bench/lab-same-figures.sh INI SECTION [SCENARIO OPTIONS] | --compare A.json B.json ..."
INI=$1 SECTION=$2
shift 2
W=$(mktemp -d "${IMAGES:-/var/tmp}/lab-same.XXXXXX")
SPID=""
cleanup() {
    [ -n "$SPID" ] && kill "$SPID" 2>/dev/null && wait "$SPID" 2>/dev/null
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$W/img"
# host-bound-check is left out unless RAM=1 (as the file says) or RAM=twin (ram twins: they
# double each run's time and their figures are not the models').
if [ "${RAM:-0}" = twin ]; then sed 's/^host-bound-check = .*/host-bound-check = twin/' "$INI" >"$W/lab.ini"; INI=$W/lab.ini
elif [ "${RAM:-0}" != 1 ]; then sed '/^host-bound-check/d' "$INI" >"$W/lab.ini"; INI=$W/lab.ini; fi
R=${KEEP:-$W/res}
mkdir -p "$R"
TESTS=()
case " $* " in *" -s "*) ;; *)
    TESTS=(-s "fs-mark:test=custom,files=100" -s "fs-mark:test=custom,files=50,threads=4"
           -s "fs-mark:test=custom,files=200,dirs=32" -s "dbench:time=5,warmup=2" -s "sqlite:count=250") ;;
esac
fail=0 i=0 files=()
if [ "${TRACE9P:-1}" = 1 ]; then
    printf '#!/bin/sh\nexec %s -msg timestamp=on -D "$LOG9P.$$" -trace "v9fs_*" "$@"\n' \
        "$(command -v "${STORBENCH_QEMU:-qemu-system-x86_64}")" >"$W/qemu9p"
    chmod 755 "$W/qemu9p"
fi
# host9p I: the 9p requests of run I's guests between its first "in guest RAM" mark and its
# last "lab:" mark (the trace's times and the marks' are the host's, in seconds since 1970).
host9p() {
    local from to
    from=$(grep -a -m1 "in guest RAM" "$R/run$1.marks" 2>/dev/null | cut -d' ' -f1)
    to=$(grep -a "guest| lab: " "$R/run$1.marks" 2>/dev/null | tail -1 | cut -d' ' -f1)
    [ -n "$from" ] && [ -n "$to" ] || { echo "no marks (not a RAM-root guest)"; return; }
    cat "$R"/run"$1".9p.* 2>/dev/null | awk -F'[@:]' -v a="$from" -v b="$to" '
        /v9fs_/ { split($3, e, " "); if (e[1] ~ /_return|rerror/) next
                  n++; if ($2 + 0 >= a && $2 + 0 <= b) { w++; k[e[1]]++ } }
        END { printf "%d while storbench ran in the guest (of %d in all)", w, n
              for (x in k) printf "; %s %d", x, k[x]; print "" }'
}
for kind in ${PLAN:-idle idle stress}; do
    i=$((i + 1))
    case "$kind" in
    idle) ;;
    stress) command -v stress-ng >/dev/null || { echo "lab-same-figures: stress-ng missing" >&2; exit 1; }
            nice -n "${STRESS_NICE:-0}" stress-ng --cpu 2 --cpu-load "${STRESS_LOAD:-100}" --timeout 7200s \
                >/dev/null 2>&1 &
            SPID=$! ;;
    *) usage "PLAN: '$kind' is neither idle nor stress" ;;
    esac
    out=$R/run$i.json
    rm -f "$out"
    t0=$(date +%s) l0=$(cut -d' ' -f1 /proc/loadavg)
    rm -f "$R/run$i.marks" "$R"/run"$i".9p.*
    ( [ "${TRACE9P:-1}" = 1 ] && export STORBENCH_QEMU=$W/qemu9p LOG9P=$R/run$i.9p
      nice -n "${NICE:-10}" "$SB" scenario run "$INI" --vm --only "$SECTION" "${TESTS[@]}" -n 1 --exact-runs \
        --images "$W/img" --image-size "${IMAGE_SIZE:-1G}" --result "$out" "$@" ) 2>&1 \
        | while IFS= read -r line; do
              printf '%(%H:%M:%S)T %s\n' -1 "$line"
              case "$line" in *"storbench-vm: in guest RAM"*|*"guest| lab: "*)
                  echo "$EPOCHREALTIME $line" >>"$R/run$i.marks" ;; esac
          done >"$R/run$i.log"
    [ "${PIPESTATUS[0]}" = 0 ] || fail=1
    l1=$(cut -d' ' -f1 /proc/loadavg)
    if [ -n "$SPID" ]; then kill "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null; SPID=""; fi
    echo "lab-same-figures: run $i ($kind): $(( $(date +%s) - t0 )) s, load average $l0 then $l1, $(date -u +%H:%M) UTC"
    grep -a "guest| lab:\|guest| storbench-vm: \(in guest RAM\|9p requests\)" "$R/run$i.log" | sed 's/^/  /'
    [ "${TRACE9P:-1}" = 1 ] && echo "  host 9p requests: $(host9p "$i")"
    [ -f "$out" ] && files+=("$out") || { tail -5 "$R/run$i.log"; fail=1; }
done
pgrep -f "qemu-system-x86_64.*$W/img" >/dev/null && { echo "lab-same-figures: a guest is still running"; fail=1; }
[ -z "$(ls -A "$W/img")" ] || { echo "lab-same-figures: left in the images directory: $(ls -A "$W/img")"; fail=1; }
[ "$fail" = 0 ] || exit 1
echo
CMP_OUT=$W/cmp compare "${files[@]}" || exit 1
grep -q '^RESULT: same' "$W/cmp" || exit 3
exit 0
