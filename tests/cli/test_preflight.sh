#!/bin/bash
# The preflight and what `run` does with it: after scripts/bootstrap every test of
# the default suites (quick, disk) can run here (`list --check`, nothing measured);
# a test that cannot (PostgreSQL's server hidden with STORBENCH_PG_BINDIR) is named
# with its reason, `run --require-all` then refuses before measuring anything and
# leaves no result file, and without it the test is skipped with a warning and the
# others run. Also `run --quiet`, `run --format json` and `list --format json`.
. "$(dirname "$0")/lib.sh"
D=$T/target; mkdir -p "$D"
DD='dd:count=2,bs=1M'

# After bootstrap: every test of the default suites is runnable (the newcomer's
# `make run` needs all of them).
check_exit "list --check quick disk: all runnable" 0 "$SB" list --check quick disk
grep -q 'not runnable' "$T/out" && not_ok "no 'not runnable' line ($(grep 'not runnable' "$T/out" | head -2))" ||
    ok "no 'not runnable' line"
n=$("$SB" list --format json quick disk | jq '[.suites[].items[]] | length')
grep -q "^$n of $n runnable$" "$T/out" && ok "list --check counts every suite item ($n)" ||
    not_ok "list --check counts every suite item ($n; $(tail -1 "$T/out"))"
check_exit "list --check --format json" 0 "$SB" list --check --format json quick
[ "$(jq '[.checks[] | select(.runnable | not)] | length' "$T/out")" = 0 ] &&
    [ "$(jq '.checks | length' "$T/out")" -gt 10 ] && ok "json checks all runnable" || not_ok "json checks all runnable"

# A missing prerequisite: named, with the reason, exit 1.
export STORBENCH_PG_BINDIR=$T/no-such-postgres
check_exit "list --check without PostgreSQL: exit 1" 1 "$SB" list --check quick
grep -q '^pgbench .*: not runnable: .*postgresql' "$T/out" && ok "pgbench named with its reason" ||
    not_ok "pgbench named with its reason ($(grep pgbench "$T/out"))"
grep -q '^dbench .*: runnable$' "$T/out" && ok "the others still runnable" || not_ok "the others still runnable"
check_exit "list --check --format json without PostgreSQL" 1 "$SB" list --check --format json pgbench
jq -e '.checks[0].runnable == false and (.checks[0].why | test("postgresql"))' "$T/out" >/dev/null &&
    ok "json names the reason" || not_ok "json names the reason"

# run --require-all: refused before anything is measured, no result file.
check_exit "run --require-all refuses" 1 "$SB" run "$DD" pgbench --quick --require-all --target "$D" --result "$T/r1.json"
grep -q 'pgbench: cannot run here: .*postgresql' "$T/err" && ok "the reason on stderr" || not_ok "the reason on stderr ($(cat "$T/err"))"
[ ! -e "$T/r1.json" ] && ! grep -q 'MB/s' "$T/out" && ok "nothing measured, nothing saved" || not_ok "nothing measured, nothing saved"
# Without it: skipped visibly, the rest runs and is saved.
check_exit "run without --require-all skips" 0 "$SB" run "$DD" pgbench --quick --target "$D" --result "$T/r2.json"
grep -q 'pgbench: skipped: .*postgresql' "$T/err" && ok "the skip is a warning" || not_ok "the skip is a warning ($(cat "$T/err"))"
[ "$(jq -r '[.results[].test] | unique | join(",")' "$T/r2.json")" = dd ] && ok "dd saved" || not_ok "dd saved"
unset STORBENCH_PG_BINDIR

# --quiet: nothing on stdout, the figures saved.
check_exit "run --quiet" 0 "$SB" run "$DD" --quiet --target "$D" --result "$T/r3.json"
[ ! -s "$T/out" ] && ok "--quiet: stdout empty" || not_ok "--quiet: stdout empty ($(head -3 "$T/out"))"
[ "$(jq '.results | length' "$T/r3.json")" = 3 ] && ok "--quiet: saved" || not_ok "--quiet: saved"
# --format json: stdout is JSON alone (the figures), the per-test lines on stderr.
check_exit "run --format json" 0 "$SB" run "$DD" --format json --target "$D"
[ -s "$T/out" ] && jq -e '(.systems | length) == 1 and ([.results[] | select(.test == "dd")] | length) == 3
       and ([.results[].entries[0].mean | select(. > 0)] | length) == 3' "$T/out" >/dev/null &&
    ok "--format json: the figures" || not_ok "--format json: the figures ($(head -c 300 "$T/out"))"
grep -q 'Direct Write' "$T/err" && ok "--format json: per-test lines on stderr" || not_ok "--format json: per-test lines on stderr"
check_exit "run --format json --quiet --result" 0 "$SB" run "$DD" -f json -Q --target "$D" --result "$T/r4.json"
[ ! -s "$T/err" ] && cmp -s <(jq -S .results "$T/out") <(jq -S .results "$T/r4.json") &&
    ok "--format json: what was saved" || not_ok "--format json: what was saved"
check_exit "run --format xml: usage" 2 "$SB" run "$DD" --format xml --target "$D"
check_one_line "run --format xml: one line" "format"

# list --format json: tests, options, defaults, suites.
check_exit "list --format json" 0 "$SB" list --format json
jq -e '([.tests[].name] | index("dbench")) and
       (.tests[] | select(.name == "dbench") | .options[] | select(.key == "loadfile") | .default == "/usr/share/dbench/client.txt") and
       (.suites[] | select(.name == "quick") | .quick == true and (.items | length) > 10)' "$T/out" >/dev/null &&
    ok "list json: tests, defaults, suites" || not_ok "list json: tests, defaults, suites"
check_exit "list --target without --check: usage" 2 "$SB" list --target "$D"
check_exit "list --check unknown: usage" 2 "$SB" list --check nosuchtest
finish
