#!/bin/bash
# Commands that share a result file at once (issue 24, item 1): 20 trials of 4 `run`s,
# 3 `import`s, and a `merge` and an `import` during 2 `run`s, each into one result with
# different identifiers: every command exits 0 and every identifier is in the file. Then
# the lock's promises seen from outside: a lock held (flock(1) on the lock file) makes a
# save wait, say so with the holder's pid, and give up after STORBENCH_LOCK_TIMEOUT with
# one line and the file as it was; an identifier another command saved while a run
# measured is refused at the save, not overwritten.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/safety_lib.sh"
command -v jq >/dev/null || { ok "concurrency (skipped: needs jq) # SKIP"; finish; }

D=$T/results
mkdir -p "$D"
failed=0
for k in $(seq 0 19); do
    if ! safety_trial "$k" "$D"; then
        not_ok "trial $k ($(safety_trial_name "$k")): $SAFETY_WHY"
        failed=$((failed + 1))
    fi
done
[ "$failed" -eq 0 ] && ok "20 concurrency trials: nothing lost"

# ---- a held lock: the wait is announced, bounded, and loses nothing ----
R=$D/held.json
"$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result "$R" >/dev/null
sum=$(md5sum <"$R")
flock "$D/.held.json.lock" sleep 30 &
holder=$!
for _ in $(seq 100); do grep -q "FLOCK.* $holder " /proc/locks && break; sleep 0.05; done
STORBENCH_LOCK_TIMEOUT=2 check_exit "a lock held past the bound: exit 1" 1 \
    "$SB" import "$SEEDS/000_a97674fdc4297efd.txt" --result "$R"
if grep -q "waiting for the lock on $D/.held.json.lock (held by pid $holder" "$T/err"; then
    ok "the wait is announced with the holder's pid"
else
    not_ok "the wait is announced with the holder's pid ($(head -c 300 "$T/err"))"
fi
if [ "$(grep -c . "$T/err")" -eq 2 ] && tail -1 "$T/err" | grep -q "still locked by pid $holder after 2 s"; then
    ok "giving up is one line naming the holder"
else
    not_ok "giving up is one line naming the holder ($(head -c 300 "$T/err"))"
fi
check "a lock held past the bound: the file as it was" test "$(md5sum <"$R")" = "$sum"
# released within the bound: the save goes through
( sleep 1.5; kill "$holder" ) &
STORBENCH_LOCK_TIMEOUT=30 check_exit "a lock let go within the bound: saved" 0 \
    "$SB" import "$SEEDS/000_a97674fdc4297efd.txt" --result "$R"
check "a lock let go within the bound: both pages there" \
    test "$(safety_ids "$R" | wc -l)" -eq 20
wait
check "no lock file left" test ! -e "$D/.held.json.lock"

# ---- an identifier saved by another command while a run measured ----
# The first run holds the lock in its save (the test-only delay) when the second starts:
# the second reads the file before the first's save lands, measures, and at its own save
# finds the identifier there. (On a slow machine the second may start after the first
# saved: it is then refused at once, with the same words.)
R=$D/late.json
rm -f "$R"
STORBENCH_TEST_SAVE_DELAY_MS=2000 "$SB" run dd --quick --runs 1 -o count=8 -t "$SAFETY_TARGET" \
    --result "$R" -i same >/dev/null 2>"$T/err1" &
first=$!
for _ in $(seq 200); do [ -e "$D/.late.json.lock" ] && grep -q "FLOCK.* $first " /proc/locks && break; sleep 0.05; done
check_exit "the same identifier at once: the second is refused" 1 \
    "$SB" run dd --quick --runs 1 -o count=8 -t "$SAFETY_TARGET" --result "$R" -i same
if tail -1 "$T/err" | grep -q "identifier 'same' is already in"; then
    ok "the second says why it saved nothing"
else
    not_ok "the second says why it saved nothing ($(head -c 300 "$T/err"))"
fi
wait "$first"; rc=$?
if [ "$rc" -eq 0 ] && [ "$(safety_ids "$R")" = same ]; then
    ok "the first keeps its figures"
else
    not_ok "the first keeps its figures (exit $rc: $(head -c 300 "$T/err1"))"
fi
finish
