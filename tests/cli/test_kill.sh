#!/bin/bash
# A short kill test (bench/kill-test.sh runs 200 kills): SIGKILL `storbench run` at
# random moments; the result file stays valid (old or new), no temporary file remains,
# and the next run removes the scratch directories the killed ones left.
. "$(dirname "$0")/lib.sh"
out=$(STORBENCH_BIN="$SB" bash "$SRC/bench/kill-test.sh" 6 "$T" "$T" 2>&1)
echo "$out" | sed 's/^/# /'
if echo "$out" | grep -q '^6 passed, 0 failed$'; then ok "kill test: 6 of 6 kills"; else not_ok "kill test: $(echo "$out" | grep -m1 FAIL)"; fi
finish
