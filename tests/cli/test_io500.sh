#!/bin/bash
# CLI tests of IOR's layouts (`storbench ior`, workloads/ior.c) and of IO500's
# phases and score (`storbench io500`, `run io500`; docs/mpi.md, "IOR's flags"
# and "IO500"): the shared file's transfers interleaved by rank across segments
# (read back through each transfer's stamp), -C reading another rank's data, a
# file per process, refusals of what IOR accepts and this does not; IO500's
# twelve phases in its order with the score computed from them, find's count,
# nothing left behind, a result `show` renders. Alone, then on 4 MPI ranks
# (oversubscribed; skipped visibly without mpirun). Behaviour only, never speed.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }
TGT="$T/target"
mkdir -p "$TGT"
RF="$T/io500.json"
XFER=47008

# the 16-byte stamp at transfer index $2 of file $1: "RANK+1 OFFSET"
stamp() { od -An -t u8 -j $(($2 * XFER)) -N 16 "$1" | awk '{print $1, $2}'; }

# ---- one process ----
check_exit "ior: one process, write then read" 0 "$SB" ior -t $XFER -b $XFER -s 4 -w -r -e -R -o "$TGT/f"
check "ior: IOR's summary lines" grep -q '^Max Write: .* MiB/sec' "$T/out"
check "ior: the file it made is removed" test -z "$(ls -A "$TGT")"
check_exit "ior -k keeps the file" 0 "$SB" ior -t $XFER -b $XFER -s 3 -w -k -o "$TGT/f"
check "ior -k: segments x block bytes" test "$(stat -c %s "$TGT/f")" = $((3 * XFER))
rm -f "$TGT/f"
for bad in "-a MPIIO" "-t 1m -b 1500k" "-s 0" "-O collective=1" "-x" "-t lots"; do
    # shellcheck disable=SC2086
    check_exit "ior $bad exits 2" 2 "$SB" ior $bad -o "$TGT/f"
    check_one_line "ior $bad: one line" "ior"
done
check "ior refusals: nothing made" test -z "$(ls -A "$TGT")"

# ---- IO500 alone, from an IO500 ini ----
cat >"$T/cfg.ini" <<EOF
[global]
datadir = $TGT
# IO500's sample ini leaves values empty for "the default"
drop-caches =
[debug]
# long enough never to cut a phase of this size, so that the counts below hold
stonewall-time = 300
[ior-easy]
API = POSIX
transferSize = 64k
blockSize = 1m
[ior-hard]
segmentCount = 20
[mdtest-easy]
n = 150
[mdtest-hard]
n = 120
EOF
PH=(ior-easy-write mdtest-easy-write ior-hard-write mdtest-hard-write find ior-easy-read mdtest-easy-stat
    ior-hard-read mdtest-hard-stat mdtest-easy-delete mdtest-hard-read mdtest-hard-delete)
# checks of one io500 run saved as identifier $1 with $2 ranks
io500_checks() {
    local id=$1 n=$2 want
    want=$(printf '"Phase: %s",' "${PH[@]}")
    check "$id: the twelve phases in IO500's order, then the scores" \
        jqok --arg id "$id" '[.results[] | select(.entries | any(.identifier == $id)) | .description | capture("(?<p>(Phase|Score): [A-Za-z-]+)").p]
            == ['"$want"'"Score: Bandwidth","Score: IOPS","Score: Total"]' "$RF"
    # the score from the saved phase figures, as IO500's calc_score
    check "$id: score = sqrt(geomean(GiB/s phases) x geomean(kIOPS phases))" jqok --arg id "$id" '
        def v($p): [.results[] | select(.description | contains($p)) | .entries[] | select(.identifier == $id) | .mean][0];
        def gm(a): (a | map(log) | add / length | exp);
        (gm([v("ior-easy-write"), v("ior-hard-write"), v("ior-easy-read"), v("ior-hard-read")])) as $bw
        | (gm([v("mdtest-easy-write"), v("mdtest-hard-write"), v("Phase: find"), v("mdtest-easy-stat"),
               v("mdtest-hard-stat"), v("mdtest-easy-delete"), v("mdtest-hard-read"), v("mdtest-hard-delete")])) as $md
        | ($bw > 0 and $md > 0)
          and ((v("Score: Bandwidth") - $bw) | fabs) < 1e-9 * $bw and ((v("Score: IOPS") - $md) | fabs) < 1e-9 * $md
          and ((v("Score: Total") - ($bw * $md | sqrt)) | fabs) < 1e-9 * $bw' "$RF"
    fig() { jq --arg id "$id" --arg p "$1" --arg f "$2" '[.results[] | select(.description | contains($p)) | .entries[]
        | select(.identifier == $id) | .secondary[] | select(.name == $f) | .value][0]' "$RF"; }
    check "$id: ior-hard wrote and read ranks x segments x 47008 bytes" \
        test "$(fig ior-hard-write bytes),$(fig ior-hard-read bytes)" = "$((n * 20 * XFER)),$((n * 20 * XFER))"
    check "$id: ior-easy moved ranks x blockSize" test "$(fig ior-easy-read bytes)" = $((n * 1048576))
    check "$id: mdtest-hard-read read every file" test "$(fig mdtest-hard-read files)" = $((n * 120))
    # IO500's find: newer than the timestamp (only the hard files), 3901 bytes, name *01*:
    # file.mdtest.R.I, for I below 120, holds 01 in 101 alone, and in R.01.. never
    check "$id: find found the hard files named *01*" test "$(fig 'Phase: find' found)" = "$n"
    check "$id: find checked every file of the data directory" \
        test "$(fig 'Phase: find' checked)" = $((n * 150 + n * 120 + n + 1 + 1))
    # IO500's rule: a write phase shorter than stonewall-time (300 s here) is [INVALID]
    check "$id: valid is 0 exactly when ior-easy-write took under stonewall-time" \
        test "$(fig ior-easy-write valid)" = "$(awk -v t="$(fig ior-easy-write time_s)" 'BEGIN { print (t < 300 ? 0 : 1) }')"
    check "$id: nothing left in the data directory" test -z "$(ls -A "$TGT")"
}
check_exit "io500 CONFIG.ini alone" 0 "$SB" io500 "$T/cfg.ini" --no-drop-caches --result "$RF" -i alone
check "io500: the score printed" grep -q 'Score: Total' "$T/out"
check "io500: IO500's twelve [RESULT] lines in its order" \
    test "$(awk '/^\[RESULT\]/ { printf "%s ", $2 }' "$T/out")" = "${PH[*]} "
saved_total=$(jq '[.results[] | select(.description | contains("Score: Total")) | .entries[] | select(.identifier == "alone") | .mean][0]' "$RF")
check "io500: IO500's [SCORE ] line gives the saved total" \
    test "$(awk '/^\[SCORE \]/ { print $(NF - (/INVALID/ ? 1 : 0)) }' "$T/out")" = "$(awk -v t="$saved_total" 'BEGIN { printf "%f", t }')"
io500_checks alone 1
check_exit "show renders the io500 result" 0 "$SB" show "$RF"
check "show: the phases and the score" bash -c "grep -q 'Phase: ior-hard-read' '$T/out' && grep -q 'Score: Total' '$T/out'"
printf '[ior-easy]\nAPI = MPIIO\n' >"$T/bad1.ini"
printf '[mdtest-hard]\nfiles-per-dir = 10\n' >"$T/bad2.ini"
printf '[ior-easy]\ntransferSize = 3m\nblockSize = 4m\n' >"$T/bad3.ini"
for b in bad1:MPIIO bad2:files-per-dir bad3:multiple; do
    check_exit "io500 ${b%%:*}.ini exits 2" 2 "$SB" io500 "$T/${b%%:*}.ini" --no-drop-caches --target "$TGT" --result "$RF" -i bad
    check_one_line "io500 ${b%%:*}.ini: one line naming ${b#*:}" "${b#*:}"
done
check "io500 refusals: nothing saved or made" bash -c "! jq -e '.systems[] | select(.identifier == \"bad\")' '$RF' >/dev/null && test -z \"\$(ls -A '$TGT')\""

# ---- 4 MPI ranks ----
MPI_BIN="$(dirname "$SB_BIN")/storbench-mpi"
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    ok "ior and io500 on ranks # SKIP no mpirun or no $MPI_BIN (scripts/bootstrap installs Open MPI)"
    finish
fi
MPIRUN=(timeout 300 mpirun -q --oversubscribe -np 4)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
check_exit "4 ranks: ior-hard layout written" 0 "${MPIRUN[@]}" "$MPI_BIN" ior -t $XFER -b $XFER -s 3 -w -e -k -o "$TGT/f"
check "4 ranks: one shared file of 4 x 3 blocks" test "$(stat -c %s "$TGT/f")" = $((12 * XFER))
# IOR's layout: block s*N + r of the file is rank r's segment s
okl=1
for s in 0 1 2; do for r in 0 1 2 3; do
    b=$((s * 4 + r))
    [ "$(stamp "$TGT/f" $b)" = "$((r + 1)) $((b * XFER))" ] || okl=0
done; done
check "4 ranks: block s*4+r holds rank r's transfer (interleaved by rank across segments)" test $okl = 1
check_exit "4 ranks: -r -C -R reads the next rank's blocks, stamps checked" 0 \
    env IOR_FAKE_TASK_PER_NODES=1 "${MPIRUN[@]}" "$MPI_BIN" ior -t $XFER -b $XFER -s 3 -r -C -R -k -o "$TGT/f"
check_exit "2 ranks reading 4 ranks' layout: -R refuses it" 1 \
    timeout 120 mpirun -q --oversubscribe -np 2 $([ "$(id -u)" = 0 ] && echo --allow-run-as-root) \
    "$MPI_BIN" ior -t $XFER -b $XFER -s 3 -r -C -R -k -o "$TGT/f"
check "2 ranks: the line names the stamp it found" grep -q "holds rank .* block of offset" "$T/err"
rm -f "$TGT/f"
# -C -Q 1 is IOR's "one host away": with the 4 ranks placed by slot on this one host,
# IOR's shift is the 4 ranks of rank 0's host, so each rank reads its own file and it is
# rank 0 that misses rank 0's file; IOR_FAKE_TASK_PER_NODES=1 (IOR's variable) makes a
# host of each rank, and rank r reads rank r+1's file: rank 3 misses rank 0's
check_exit "4 ranks: file per process kept" 0 "${MPIRUN[@]}" "$MPI_BIN" ior -F -t 64k -b 256k -w -k -o "$TGT/c"
rm -f "$TGT/c.00000000"
check_exit "4 ranks on one host: -F -C without rank 0's file fails" 1 \
    "${MPIRUN[@]}" "$MPI_BIN" ior -F -t 64k -b 256k -r -C -k -o "$TGT/c"
check "4 ranks on one host: -C -Q 1 (IOR: one host away): rank 0 read its own file" \
    grep -q "rank 0 on .*c.00000000" "$T/err"
check "4 ranks on one host: IOR's rank offset 0 printed" grep -q "^rank offset *: 0$" "$T/out"
check_exit "4 ranks, IOR_FAKE_TASK_PER_NODES=1: -F -C without rank 0's file fails" 1 \
    env IOR_FAKE_TASK_PER_NODES=1 "${MPIRUN[@]}" "$MPI_BIN" ior -F -t 64k -b 256k -r -C -k -o "$TGT/c"
check "4 ranks, a host per rank: -C: rank 3 read rank 0's file" grep -q "rank 3 on .*c.00000000" "$T/err"
check "4 ranks, a host per rank: IOR's rank offset 1 printed" grep -q "^rank offset *: 1$" "$T/out"
rm -f "$TGT"/c.*
check_exit "4 ranks: file per process with -C" 0 "${MPIRUN[@]}" "$MPI_BIN" ior -F -t 64k -b 256k -s 2 -w -r -C -R -e -o "$TGT/e"
check "4 ranks: per-process files removed" test -z "$(ls -A "$TGT")"
# a rank that fails (its file is a directory): one line naming it, exit 1, every file this
# run made removed, the directory (not this run's) left
mkdir "$TGT/x.00000002"
check_exit "4 ranks: rank 2 cannot open its file" 1 "${MPIRUN[@]}" "$MPI_BIN" ior -F -t 64k -b 256k -w -r -e -o "$TGT/x"
check "4 ranks: the line names rank 2 and its file" grep -q "rank 2 on .*x.00000002" "$T/err"
check "4 ranks: the other ranks' files removed, the directory kept" test "$(ls -A "$TGT")" = x.00000002
rmdir "$TGT/x.00000002"
# -D with wear-out: whenever the wall comes, every rank goes on to the most blocks any
# rank wrote, so the shared file is exactly 4 x that many blocks; the read reads them all
check_exit "4 ranks: -D 0.2 with stoneWallingWearOut=1" 0 "${MPIRUN[@]}" "$MPI_BIN" ior -t $XFER -b $XFER \
    -s 100000000 -D 0.2 -O stoneWallingWearOut=1 -w -r -C -R -e -k -o "$TGT/w"
most=$(awk '/^stonewalling pairs accessed/ { print $7; exit }' "$T/out")
check "4 ranks wear-out: the file holds 4 x the most blocks a rank wrote ($most)" \
    test "$(stat -c %s "$TGT/w")" = $((4 * ${most:-0} * XFER))
check "4 ranks wear-out: every rank wrote that many blocks" grep -q "pairs in all\$" "$T/out"
check "4 ranks wear-out: the same count on every rank after it" \
    grep -q "ranks* stopped by it, $most to $most pairs in all" "$T/out"
rm -f "$TGT/w"
check_exit "4 ranks: io500 CONFIG.ini" 0 "${MPIRUN[@]}" "$MPI_BIN" io500 "$T/cfg.ini" --no-drop-caches --result "$RF" -i four
io500_checks four 4
check "4 ranks: the figures say 4 ranks" jqok '[.results[].entries[] | select(.identifier == "four") | .secondary[] | select(.name == "ranks") | .value] | unique == [4]' "$RF"
# mdtest's time for a phase is the longest rank's, from its start to the barrier that ends
# the phase: a rank that starts late (rank 1 sleeps 2 s after each mdtest phase's barrier,
# as a descheduled rank would) holds every other rank's end back, so each mdtest phase's
# time covers the sleep (a rank's own time to its last file, which the base took, does not)
check_exit "2 ranks, rank 1 late: io500" 0 env STORBENCH_TEST_RANK_DELAY=1:2000 timeout 300 mpirun -q --oversubscribe \
    -np 2 $([ "$(id -u)" = 0 ] && echo --allow-run-as-root) "$MPI_BIN" io500 "$T/cfg.ini" --no-drop-caches --result "$RF" -i late
check "rank 1 late: each of the 7 mdtest phases' time covers its start" jqok '[.results[]
    | select(.description | contains("Phase: mdtest-")) | .entries[] | select(.identifier == "late")
    | .secondary[] | select(.name == "time_s") | .value] | length == 7 and all(. >= 1)' "$RF"
finish
