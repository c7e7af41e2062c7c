#!/bin/bash
# CLI tests of the mdtest workload (docs/workloads.md, "mdtest"): `run mdtest`
# in the easy and hard layouts at a tiny scale saves one result per phase with
# its counts; phases= leaves phases out of the file; option errors exit 2 before
# anything runs; under MPI (storbench-mpi beside the binary under test, 2
# ranks, oversubscribed) the figures are both ranks'. Behaviour only, never speed.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }
TGT="$T/target"
mkdir -p "$TGT"
R=mdt
RF="$XDG_DATA_HOME/storbench/results/$R.json"

# the phase's saved entry for identifier $1, description matching $2
phase() { jq --arg id "$1" --arg d "$2" \
    '[.results[] | select(.test == "mdtest" and (.description | test($d))) | .entries[] | select(.identifier == $id)]' "$RF"; }
# a secondary figure of that entry
figure() { jq --arg id "$1" --arg d "$2" --arg f "$3" \
    '[.results[] | select(.test == "mdtest" and (.description | test($d))) | .entries[] | select(.identifier == $id)
      | .secondary[] | select(.name == $f) | .value][0]' "$RF"; }

check_exit "easy: run mdtest" 0 "$SB" run mdtest -o files=120 --target "$TGT" --result "$R" -i easy -n 1 --exact-runs
for p in Create Find Stat Read Delete; do
    check "easy: $p phase saved with a figure" jqok 'length == 1 and .[0].mean > 0' <(phase easy "Layout: Easy - Phase: $p")
    check "easy: $p phase did 120 files" test "$(figure easy "Layout: Easy - Phase: $p" files)" = 120
done
check "easy: unit ops/s" jqok '[.results[] | select(.test == "mdtest") | .unit] | unique == ["ops/s"]' "$RF"
check "easy: find found file.mdtest.0.101" test "$(figure easy "Layout: Easy - Phase: Find" found)" = 1
check "easy: nothing left in the target" test -z "$(ls -A "$TGT")"

check_exit "hard: run mdtest" 0 "$SB" run mdtest:layout=hard,files=110 --target "$TGT" --result "$R" -i hard -n 1 --exact-runs
for p in Create Find Stat Read Delete; do
    check "hard: $p phase saved" jqok 'length == 1 and .[0].mean > 0' <(phase hard "Layout: Hard - .*Phase: $p")
done
check "hard: 3901 bytes written per file" test "$(figure hard "Layout: Hard - .*Phase: Create" bytes)" = $((110 * 3901))
check "hard: 3901 bytes read per file" test "$(figure hard "Layout: Hard - .*Phase: Read" bytes)" = $((110 * 3901))
check "hard: nothing left in the target" test -z "$(ls -A "$TGT")"

check_exit "phases=create,delete" 0 "$SB" run mdtest -o files=20 -o phases=create,delete --target "$TGT" \
    --result "$R" -i some -n 1 --exact-runs
check "phases: only create and delete saved" \
    jqok '[.results[] | select(.entries | any(.identifier == "some")) | .description | capture("Phase: (?<p>[A-Za-z]+)").p] == ["Create", "Delete"]' "$RF"

check_exit "stonewall: wall and wear-out figures" 0 "$SB" run mdtest -o files=1000000 -o stonewall=20ms \
    -o phases=create,delete --target "$TGT" --result "$R" -i wall -n 1 --exact-runs
check "stonewall: kIOPS at the wall saved" jqok '. > 0' <(figure wall "Phase: Create" stonewall_kiops)

for bad in "phases=stat" "phases=create,ls" "files=0" "size=1G" "stonewall=soon" "layout=medium"; do
    check_exit "bad option $bad exits 2" 2 "$SB" run mdtest -o "$bad" --target "$TGT" --result "$R" -i bad
    check_one_line "bad option $bad: one line" "${bad%%=*}"
done
check "bad options: nothing run or saved" jqok '[.systems[].identifier] | index("bad") == null' "$RF"
check "mdtest is not in the default suites" bash -c "! '$SB' list --suites 2>/dev/null | grep -qw mdtest"

# ---- two MPI ranks ----
MPI_BIN="$(dirname "$SB_BIN")/storbench-mpi"
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    ok "mdtest on ranks # SKIP no mpirun or no $MPI_BIN (scripts/bootstrap installs Open MPI)"
    finish
fi
MPIRUN=(timeout 120 mpirun -q --oversubscribe -np 2)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
for layout in easy hard; do
    check_exit "2 ranks: $layout" 0 "${MPIRUN[@]}" "$MPI_BIN" run mdtest -o layout=$layout -o files=60 \
        --no-drop-caches --target "$TGT" --result "$R" -i "mpi-$layout" -n 1 --exact-runs
    for p in Create Find Stat Read Delete; do
        check "2 ranks $layout: $p over 2 ranks, 120 files" \
            test "$(figure "mpi-$layout" "Phase: $p" ranks),$(figure "mpi-$layout" "Phase: $p" files)" = "2,120"
    done
    check "2 ranks $layout: both ranks' rates" jqok '.[0].secondary | map({(.name): .value}) | add | .rank_min > 0 and .rank_max >= .rank_min' \
        <(phase "mpi-$layout" "Layout: $(echo ${layout^}) - Phase: Stat")
    check "2 ranks $layout: nothing left" test -z "$(ls -A "$TGT")"
done
check_exit "2 ranks: stonewall wear-out" 0 "${MPIRUN[@]}" "$MPI_BIN" run mdtest -o files=1000000 -o stonewall=20ms \
    -o phases=create,stat,delete --no-drop-caches --target "$TGT" --result "$R" -i mpi-wall -n 1 --exact-runs
# after the wear-out every rank made the most any rank made: the total is even, and stat saw them all
made=$(figure mpi-wall "Phase: Create" files)
check "2 ranks stonewall: both ranks made the same count" test "$(( ${made%.*} % 2 ))" = 0
check "2 ranks stonewall: stat saw every file" test "$(figure mpi-wall "Phase: Stat" files)" = "$made"
check "2 ranks stonewall: the wall came before the wear-out" \
    jqok '. <= '"$made" <(figure mpi-wall "Phase: Create" files_at_stonewall)
finish
