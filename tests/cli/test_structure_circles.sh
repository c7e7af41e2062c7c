#!/bin/bash
# scripts/check-structure refuses include circles inside a folder (docs/architecture.md,
# "No circles"; issue 25): foo.c and foo.h are one module, and a chain of includes between
# the modules of one folder must never lead back. Made-up trees: a direct circle, one
# through a third module, a module's own header (no circle), a chain without a way back,
# and the same names in two folders (no circle).
. "$(dirname "$0")/lib.sh"

CS=$SRC/scripts/check-structure
F=$T/src
mkdir -p "$F/core" "$F/report"
printf '#include "report/b.h"\n' >"$F/report/a.c"
printf '#include "report/a.h"\n' >"$F/report/b.c"
: >"$F/report/a.h"; : >"$F/report/b.h"
check_exit "a.c including b.h and b.c including a.h fails" 1 "$CS" "$F"
check "  named as a circle of report/a and report/b" \
    grep -q 'include circle: report/a <-> report/b' "$T/out"

printf '#include "report/c.h"\n' >"$F/report/b.c"
printf '#include "report/a.h"\n' >"$F/report/c.h"
check_exit "a -> b -> c -> a through a header fails" 1 "$CS" "$F"
check "  all three named" grep -q 'include circle: report/a <-> report/b <-> report/c' "$T/out"
check "  one line for the circle" test "$(grep -c 'include circle' "$T/out")" = 1

: >"$F/report/c.h"
printf '#include "report/a.h"\n#include "report/b.h"\n' >"$F/report/a.c"
check_exit "a module including its own header and a chain a -> b -> c pass" 0 "$CS" "$F"

printf '#include "core/a.h"\n' >"$F/core/b.c"
: >"$F/core/a.h"; : >"$F/core/b.h"
check_exit "report/a -> report/b and core/b -> core/a: two folders, no circle" 0 "$CS" "$F"
printf '#include "core/b.h"\n' >"$F/core/a.c"
check_exit "core/a <-> core/b fails" 1 "$CS" "$F"
check "  the core circle alone" grep -q 'include circle: core/a <-> core/b' "$T/out"
check "  not the report chain" bash -c '! grep -q report/ "$1"' _ "$T/out"
finish
