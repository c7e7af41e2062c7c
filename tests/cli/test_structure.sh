#!/bin/bash
# The house rules stay true (docs/architecture.md): scripts/check-structure finds no
# source file over 800 lines, no function over 120 and no include against the layers
# in src/; and it does catch each kind of breach in a small made-up tree.
. "$(dirname "$0")/lib.sh"

CS=$SRC/scripts/check-structure
check_exit "src/ keeps the structure rules" 0 "$CS" "$SRC/src"
[ -s "$T/out" ] && not_ok "check-structure src/ printed: $(head -c 600 "$T/out")"
check_exit "-v names the largest file and the longest function" 0 "$CS" -v "$SRC/src"
check "-v: largest file" grep -q '^largest file: ' "$T/out"
check "-v: longest function" grep -q '^longest function: ' "$T/out"

# A made-up tree with one breach of each kind.
F=$T/src
mkdir -p "$F/core" "$F/results" "$F/report" "$F/cli"
printf '/* ok */\n#include "core/x.h"\nint f(void)\n{\n    return 0;\n}\n' >"$F/core/ok.c"
check_exit "a clean tree passes" 0 "$CS" "$F"

{ echo 'static int long_one(int a,'; echo '                    int b)'; echo '{'
  for i in $(seq 1 120); do echo "    a += $i;"; done; echo '    return a + b;'; echo '}'; } >"$F/core/long.c"
check_exit "a function of 125 lines fails" 1 "$CS" "$F"
check "  named with its length" grep -q 'core/long.c:1: function long_one is 125 lines' "$T/out"
rm "$F/core/long.c"

for i in $(seq 1 801); do echo "/* $i */"; done >"$F/report/big.h"
check_exit "a file of 801 lines fails" 1 "$CS" "$F"
check "  named with its length" grep -q 'report/big.h: 801 lines' "$T/out"
rm "$F/report/big.h"

printf '#include "report/text.h"\n' >"$F/results/up.c"
check_exit "results/ including report/ fails" 1 "$CS" "$F"
check "  named with the layer" grep -q 'results/up.c: includes report/' "$T/out"
rm "$F/results/up.c"
printf '#include "cli/cli.h"\n' >"$F/core/up.c"
check_exit "core/ including cli/ fails" 1 "$CS" "$F"
rm "$F/core/up.c"
printf '#include "workloads/workload.h"\n' >"$F/results/up.h"
check_exit "results/ including workloads/ fails" 1 "$CS" "$F"
rm "$F/results/up.h"
printf '#include "cli/cli.h"\n#include "report/text.h"\n' >"$F/cli/top.c"
check_exit "cli/ may include everything" 0 "$CS" "$F"
# Workload options are resolved once (docs/architecture.md, "Adding a test"): a workload's
# resolve is named only by its definition and its table entry, and no run reads ctx->cfg.
mkdir -p "$F/workloads"
cat >"$F/workloads/w.c" <<'EOF2'
/* w */
static int w_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    return 0;
}
static int w_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    return 0;
}
const sb_workload sb_wl_w = {
    .resolve = w_resolve,
    .run = w_run,
};
EOF2
check_exit "a workload whose run takes its params passes" 0 "$CS" "$F"
sed '7s/.*/    return w_resolve(NULL, NULL, NULL, 0);/; s/sb_wl_w /sb_wl_w2 /' "$F/workloads/w.c" >"$F/workloads/w2.c"
check_exit "a run that calls its workload's resolve again fails" 1 "$CS" "$F"
check "  named with the line" grep -q 'workloads/w2.c:7: w_resolve is called again' "$T/out"
rm "$F/workloads/w2.c"
sed '7s/.*/    return sb_config_u(ctx->cfg, "n") > 0;/; s/sb_wl_w /sb_wl_w3 /' "$F/workloads/w.c" >"$F/workloads/w3.c"
check_exit "a run that reads the configuration again fails" 1 "$CS" "$F"
check "  named with the line" grep -q "workloads/w3.c:7: reads the run's configuration" "$T/out"
rm "$F/workloads/w3.c"
mkdir -p "$F/newlayer" && printf '/* x */\n' >"$F/newlayer/a.c"
check_exit "a directory missing from the layer table fails" 1 "$CS" "$F"
check_exit "no source directory: usage error" 2 "$CS" "$T/none"
finish
