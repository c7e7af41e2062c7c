#!/bin/bash
# A PTS user's habits (docs/pts.md, "A PTS user's habits"; issue 28): `run pts/NAME` and
# `pts/NAME-VERSION` select the storbench test standing in for that profile (another
# revision with a one-line note, an unknown profile exit 2 with the known ones); `list`
# shows the map (text and json) and `list pts/fio` works; TEST_RESULTS_NAME,
# TEST_RESULTS_IDENTIFIER and TEST_RESULTS_DESCRIPTION are the defaults of --result,
# --identifier and --description (the flags win); `run` without --result saves into a new
# result named after the date and host and says where (--no-save saves nothing); a new
# test joins an existing identifier, the same test again is refused, and --replace
# replaces only that test's figures, keeping the identifier's others. Runs are `dd` at
# 8 blocks of 2 MiB, one run.
. "$(dirname "$0")/lib.sh"
D=$T/target
mkdir -p "$D"
RES=$XDG_DATA_HOME/storbench/results
DD=(--quick --runs 1 --exact-runs -o count=8 -t "$D")
jqt() { jq -e "$@" >/dev/null; }
unset TEST_RESULTS_NAME TEST_RESULTS_IDENTIFIER TEST_RESULTS_DESCRIPTION

# ---- pts/ aliases ----
for p in pts/fio pts/fio-1.14.1 pts/fs-mark-3.3.0 pts/sqlite pts/pgbench pts/dbench pts/postmark \
         pts/compilebench pts/iozone pts/fs-mark-1.0.2; do
    t=${p#pts/}; t=${t%%-[0-9]*}
    # an option no test has is refused only after the name resolved: nothing runs
    check_exit "$p is a test" 2 "$SB" run "$p" -o no-such-key=1 -t "$D" --no-save
    check "$p resolves to $t (no 'unknown')" bash -c "! grep -q 'unknown' '$T/err' && grep -q \"no selected test has an option 'no-such-key'\" '$T/err'"
done
check_exit "run pts/fs-mark-3.3.0 -o test=custom ... (an unfollowed revision)" 2 "$SB" run pts/fs-mark-3.3.0 -o nope=1 -t "$D"
check "pts/fs-mark-3.3.0: a note of the version followed" grep -q "note: pts/fs-mark-3.3.0 runs storbench's fs-mark, which follows FS-Mark 3.3" "$T/err"
check_exit "pts/fs-mark-1.0.2: no note (a revision of FS-Mark 3.3)" 2 "$SB" run pts/fs-mark-1.0.2 -o nope=1 -t "$D"
check "pts/fs-mark-1.0.2: no note" bash -c "! grep -q note '$T/err'"
check_exit "pts/fio:size=... inline options" 2 "$SB" run pts/fio:nope=1 -t "$D"
check_one_line "pts/fio inline: the option refused, not the name" "nope"
check_exit "unknown PTS profile: exit 2" 2 "$SB" run pts/openssl -t "$D"
check_one_line "unknown PTS profile: one line listing the known ones" "pts/openssl.*pts/fio, pts/fs-mark.*pts/pgbench"
check_exit "pts/fio-x (not a version): exit 2" 2 "$SB" run pts/fio-x -t "$D"
check "nothing saved by refused runs" test ! -e "$RES"
check_exit "run pts/dbench... a real run of a pts/ alias: pts/fs-mark small" 0 "$SB" run pts/fs-mark \
    -o test=custom -o files=20 -o size=4k --runs 1 --exact-runs -t "$D" -r "$T/fsm.json" -i X
check "the figure is fs-mark's" test "$(jq -r '[.results[].test] | unique | join(",")' "$T/fsm.json")" = fs-mark

# ---- list shows the map ----
check_exit "list" 0 "$SB" list
check "list: a PTS profiles section" grep -q '^PTS profiles' "$T/out"
check "list: pts/fio -> fio" grep -Eq '^pts/fio +fio ' "$T/out"
check "list: pts/pgbench -> pgbench" grep -Eq '^pts/pgbench +pgbench ' "$T/out"
check_exit "list --format json" 0 "$SB" list --format json
check "list json: pts_profiles" jqt '[.pts_profiles[] | select(.profile == "pts/fio" and .test == "fio")] | length == 1' "$T/out"
check "list json: 8 profiles" jqt '.pts_profiles | length == 8' "$T/out"
check_exit "list pts/fio" 0 "$SB" list pts/fio
check "list pts/fio: its row and fio's options" bash -c "grep -Eq '^pts/fio +fio' '$T/out' && grep -q '^fio ' '$T/out'"
check_exit "list pts/fio-2.1.0 --format json" 0 "$SB" list pts/fio-2.1.0 --format json
check "list pts/fio-2.1.0 json" jqt '.tests[0].name == "fio" and .pts_profiles[0].profile == "pts/fio"' "$T/out"
check_exit "list pts/nope: exit 2" 2 "$SB" list pts/nope
check_one_line "list pts/nope: one line" "unknown PTS profile"

# ---- run without --result: a new result named after the date and host ----
host=$(hostname | tr 'A-Z' 'a-z' | tr -c 'a-z0-9._\n-' '-')
check_exit "run without --result" 0 "$SB" run dd "${DD[@]}"
f=$(ls "$RES"/*.json 2>/dev/null | head -1)
check "saved in the results dir" test -n "$f"
check "named YYYY-MM-DD-HHMM-host" bash -c "basename '$f' | grep -Eq '^20[0-9]{2}-[01][0-9]-[0-3][0-9]-[0-2][0-9][0-5][0-9]-$host\.json\$'"
check "one line says where" test "$(grep -c "^Saved 1 test as '.*' in $f\$" "$T/out")" -eq 1
check "the default identifier is the host name" jqt --arg h "$(hostname)" '.systems[0].identifier == $h' "$f"
check_exit "a second run in the same minute" 0 "$SB" run dd "${DD[@]}"
check "a second run: a result of its own, not refused" test "$(ls "$RES" | wc -l)" -eq 2
STORBENCH_PG_BINDIR=/nonexistent check_exit "every test skipped, no --result: exit 0" 0 "$SB" run pgbench -q -t "$D"
check "every test skipped: no result made" test "$(ls "$RES" | wc -l)" -eq 2
check_exit "--no-save" 0 "$SB" run dd "${DD[@]}"  --no-save
check "--no-save saves nothing" test "$(ls "$RES" | wc -l)" -eq 2
check_exit "--no-save with --result: exit 2" 2 "$SB" run dd "${DD[@]}" --no-save --result x
check_exit "--identifier without --result" 0 "$SB" run dd "${DD[@]}" -i "Lab box"
check "--identifier without --result: saved under it" test "$(cat "$RES"/*.json | grep -c '"identifier": "Lab box"')" -ge 1

# ---- TEST_RESULTS_* ----
check_exit "TEST_RESULTS_NAME/IDENTIFIER/DESCRIPTION" 0 env TEST_RESULTS_NAME=envres \
    TEST_RESULTS_IDENTIFIER="Env Id" TEST_RESULTS_DESCRIPTION="from the environment" "$SB" run dd "${DD[@]}"
check "TEST_RESULTS_NAME: the result" test -f "$RES/envres.json"
check "TEST_RESULTS_IDENTIFIER: the identifier" jqt '.systems[0].identifier == "Env Id"' "$RES/envres.json"
check "TEST_RESULTS_DESCRIPTION: the description" jqt '.description == "from the environment"' "$RES/envres.json"
check_exit "flags win over TEST_RESULTS_*" 0 env TEST_RESULTS_NAME=envres2 TEST_RESULTS_IDENTIFIER="Env Id" \
    TEST_RESULTS_DESCRIPTION="env" "$SB" run dd "${DD[@]}" -r "$T/flag.json" -i "Flag Id" --description "flag"
check "flags win: the file" bash -c "test -f '$T/flag.json' && test ! -e '$RES/envres2.json'"
check "flags win: identifier and description" jqt '.systems[0].identifier == "Flag Id" and .description == "flag"' "$T/flag.json"
check_exit "--no-save wins over TEST_RESULTS_NAME" 0 env TEST_RESULTS_NAME=envres3 "$SB" run dd "${DD[@]}" --no-save
check "--no-save: no envres3" test ! -e "$RES/envres3.json"

# ---- an identifier's tests: a new one joins, the same one again needs --replace ----
R=$T/cmp.json
check_exit "A: dd zeros" 0 "$SB" run dd "${DD[@]}" -r "$R" -i A
check_exit "B: dd zeros" 0 "$SB" run dd "${DD[@]}" -r "$R" -i B
check_exit "A: a new test (dd random) joins A without --replace" 0 "$SB" run dd "${DD[@]}" -o data=random -r "$R" -i A
check "A has both tests" test "$(jq '[.results[].entries[] | select(.identifier == "A")] | length' "$R")" -eq 6
sum=$(md5sum <"$R")
check_exit "A: the same test again without --replace: exit 1" 1 "$SB" run dd "${DD[@]}" -o data=random -r "$R" -i A
check_one_line "same test: one line naming it" "is already in the result file with a figure for dd"
check "same test refused: the file as it was" test "$(md5sum <"$R")" = "$sum"
zeros() { jq -c '[.results[] | select(.description | test("Zeros")) | .entries[] | select(.identifier == "A") | .values]' "$R"; }
random() { jq -c '[.results[] | select(.description | test("Random")) | .entries[] | select(.identifier == "A") | .values]' "$R"; }
z=$(zeros) r=$(random)
check_exit "A: --replace of dd random" 0 "$SB" run dd "${DD[@]}" -o data=random -r "$R" -i A --replace
check "--replace keeps A's other test (dd zeros) as it was" test "$(zeros)" = "$z"
check "--replace replaced dd random" test "$(random)" != "$r"
check "--replace: still 6 figures of A, 3 of B" test "$(jq '[.results[].entries[] | select(.identifier == "A")] | length' "$R"),$(jq '[.results[].entries[] | select(.identifier == "B")] | length' "$R")" = "6,3"
check "--replace: 2 systems, A first" jqt '[.systems[].identifier] == ["A", "B"]' "$R"
check_exit "the file reads back" 0 "$SB" show "$R"
# --replace used to add a test: the identifier's other tests stay (they used to be dropped)
check_exit "C: dd zeros" 0 "$SB" run dd "${DD[@]}" -r "$T/c.json" -i C
check_exit "C: dd random with --replace" 0 "$SB" run dd "${DD[@]}" -o data=random -r "$T/c.json" -i C --replace
check "C keeps dd zeros and has dd random" jqt '[.results[] | select(.entries[].identifier == "C") | .description | test("Zeros")] | sort == [false, false, false, true, true, true]' "$T/c.json"

finish
