#!/bin/bash
# scripts/check-objects keeps two rules only the object files show (docs/architecture.md,
# "No circles", "No hidden state"): the real tree has no symbol-level circle between object
# files and no mutable function-local static of 256 bytes or more; made-up objects with a
# circle of three files, with a big static buffer, with a big *const* table (allowed), and
# with a chain that does not lead back (allowed) show the checker sees each case.
. "$(dirname "$0")/lib.sh"

CO=$SRC/scripts/check-objects
OBJ=$(dirname "$SB_BIN")/src
if command -v python3 >/dev/null && command -v nm >/dev/null && [ -d "$OBJ" ]; then
    check_exit "the tree: no object circles, no big mutable statics" 0 "$CO" "$OBJ" "$SRC/src"
    [ -s "$T/out" ] && sed 's/^/#   /' "$T/out" | head -20
else
    echo "ok # SKIP needs python3, nm and the build's objects ($OBJ)"
    finish
fi

F=$T/src B=$T/build
mkdir -p "$F/x" "$B/x"
cc1() { printf '%s\n' "$2" >"$F/x/$1.c" && cc -c -O0 -o "$B/x/$1.o" "$F/x/$1.c"; }
cc1 a 'int b(void); int a(void) { return b(); }'
cc1 b 'int c(void); int b(void) { return c(); }'
cc1 c 'int a(void); int c(void) { return a(); }'
check_exit "a -> b -> c -> a fails" 1 "$CO" "$B" "$F"
check "  one circle of the three named" grep -q 'circle of 3 objects: x/a.o -> x/b.o (b)' "$T/out"
cc1 c 'int c(void) { return 0; }'
check_exit "a -> b -> c without a way back passes" 0 "$CO" "$B" "$F"
cc1 d 'char *d(void) { static char buf[4096]; return buf; }'
check_exit "a function-local static of 4096 bytes fails" 1 "$CO" "$B" "$F"
check "  named with its size" grep -q 'x/d.o: function-local static buf of 4096 bytes' "$T/out"
cc1 d 'const char *d(int i) { static const char *const t[64] = {"a", "b"}; return t[i]; }
char *e(void) { static char small[255]; return small; }'
check_exit "a const table of pointers and a small static pass" 0 "$CO" "$B" "$F"
rm -f "$F/x/c.c"
cc1 c 'int a(void); int c(void) { return a(); }'
rm -f "$F/x/c.c"
check_exit "the object of a removed source is not read" 0 "$CO" "$B" "$F"
finish
