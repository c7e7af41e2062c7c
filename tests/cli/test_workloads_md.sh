#!/bin/bash
# CLI tests of `storbench list --format md` and of the document generated from it: the
# options section of docs/workloads.md is what the command prints (scripts/gen-workloads-md
# --check), a stale copy of the document is caught, every test has its table with every
# option, and the format's refusals are one line with exit 2.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }

# ---- docs/workloads.md says what the option tables say ----
if sh "$SRC/scripts/gen-workloads-md" --check "$SB_BIN" "$SRC" 2>"$T/gen.err"; then
    ok "docs/workloads.md lists every test's options as 'list --format md' does"
else
    not_ok "docs/workloads.md lists every test's options as 'list --format md' does ($(head -c 400 "$T/gen.err"))"
fi

# ---- the check can fail: a copy with one default changed, one option dropped ----
mkdir -p "$T/src/docs"
sed 's/^| `count` | Count | whole number, 1 .. 4294967296 | `512` |/| `count` | Count | whole number, 1 .. 4294967296 | `1024` |/' \
    "$SRC/docs/workloads.md" >"$T/src/docs/workloads.md"
if cmp -s "$SRC/docs/workloads.md" "$T/src/docs/workloads.md"; then
    not_ok "stale copy: the sed found dd's count row to change"
elif sh "$SRC/scripts/gen-workloads-md" --check "$SB_BIN" "$T/src" 2>"$T/gen.err"; then
    not_ok "stale copy (dd count default 1024): --check exits 1"
else
    ok "stale copy (dd count default 1024): --check exits 1"
    check "stale copy: it says which document" grep -q 'workloads.md differs' "$T/gen.err"
fi
grep -v '^| `bs` | Block Size | size' "$SRC/docs/workloads.md" >"$T/src/docs/workloads.md"
if sh "$SRC/scripts/gen-workloads-md" --check "$SB_BIN" "$T/src" 2>/dev/null; then
    not_ok "stale copy (dd's bs row missing): --check exits 1"
else
    ok "stale copy (dd's bs row missing): --check exits 1"
fi
# rewriting the copy makes it right again
sh "$SRC/scripts/gen-workloads-md" "$SB_BIN" "$T/src" >/dev/null 2>&1
check "gen-workloads-md rewrites the stale copy into the document" cmp -s "$SRC/docs/workloads.md" "$T/src/docs/workloads.md"

# ---- the command: a section per test, a row per option ----
check_exit "list --format md" 0 "$SB" list --format md
cp "$T/out" "$T/md"
"$SB" list --format json >"$T/json"
n_tests=$(jq '.tests | length' "$T/json")
check "one section per test ($n_tests)" test "$(grep -c '^### ' "$T/md")" -eq $((n_tests + 1))
missing=""
for t in $(jq -r '.tests[].name' "$T/json"); do
    for k in $(jq -r --arg t "$t" '.tests[] | select(.name == $t) | .options[].key' "$T/json"); do
        awk -v t="### $t" -v k="| \`$k\` |" '$0 == t { in_t = 1; next } /^### / { in_t = 0 }
            in_t && index($0, k) == 1 { found = 1 } END { exit !found }' "$T/md" || missing="$missing $t:$k"
    done
done
check "every option of every test has its row${missing:+ (missing:$missing)}" test -z "$missing"
check "a row: key, title, kind with bounds, default, --quick" \
    grep -qF '| `trees` | Trees | whole number, 1 .. 1000 | `10` | `10` |' "$T/md"
check "a row: \"auto\" among the values" grep -qF '| `scale` | Scale | whole number, 1 .. 1000000, or `auto` | `auto` | `1` |' "$T/md"
check "a row: choices with the names the option line shows" grep -qF '`zero` (Zeros), `random` (Random)' "$T/md"
check "suites listed with their items" grep -qF '| `dd` | dd direct write, direct read and read cache | `dd` |' "$T/md"
check_exit "list iozone --format md: that test only" 0 "$SB" list iozone --format md
check "list iozone --format md: one section, iozone's" test "$(grep '^### ' "$T/out")" = "### iozone"

# ---- refusals ----
check_exit "list --format md --check: refused" 2 "$SB" list --format md --check
check_one_line "list --format md --check: one line" "md"
check_exit "list --format xml: refused" 2 "$SB" list --format xml
check_one_line "list --format xml: one line naming the formats" "text, json or md"
check_exit "list nosuch --format md: refused" 2 "$SB" list nosuch --format md
check_one_line "list nosuch --format md: one line" "nosuch"
finish
