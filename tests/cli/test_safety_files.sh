#!/bin/bash
# Files storbench does not own (issue 24, items 2-4 and 14): `io --directory` never
# reads, writes or removes a user's file named like its own, nor follows a symlink
# planted there; `show -o`, `run --result` and `io --filename` follow a symlink in a
# sticky world-writable directory only when it is the caller's or the directory
# owner's (storbench's own rule: fs.protected_symlinks is turned off for the test when
# it can be, so the kernel's rule does not do the work); `show -o` refuses the input
# itself; and the small ones (show option conflicts, `show -o ''`, compare of an empty
# file, `dd --data` errors, the dbench quick scale in docs/workloads.md).
# The symlink cases need root and a throwaway unprivileged user (made here if missing);
# they are skipped visibly otherwise.
. "$(dirname "$0")/lib.sh"
S1=$SEEDS/001_5b3cf86a040befc6.txt
R=$T/results
check_exit "import a seed page" 0 "$SB" import "$S1" --result r --results-dir "$R"

# ---- io --directory: a user's storbench-io.0 is not the job's ----
mkdir -p "$T/iodir"
echo "the user's own file" >"$T/iodir/storbench-io.0"
ino=$(stat -c %i "$T/iodir/storbench-io.0")
sum=$(md5sum <"$T/iodir/storbench-io.0")
check_exit "io --directory, read job, beside a user's storbench-io.0" 0 \
    "$SB" io --directory "$T/iodir" --rw read --bs 4k --size 64k
check_exit "io --directory, write job, two files" 0 \
    "$SB" io --directory "$T/iodir" --rw write --bs 4k --size 64k --numjobs 2
check "the user's storbench-io.0 survives unchanged" \
    test -f "$T/iodir/storbench-io.0" -a "$(md5sum <"$T/iodir/storbench-io.0" 2>/dev/null)" = "$sum"
check "the user's storbench-io.0 is the same inode" test "$(stat -c %i "$T/iodir/storbench-io.0")" = "$ino"
check "io --directory leaves nothing of its own" test "$(ls -A "$T/iodir")" = storbench-io.0
# --filename it creates is kept (as fio keeps it); one it did not create is used as given
check_exit "io --filename creates and keeps its file" 0 \
    "$SB" io --filename "$T/iodir/named" --rw write --bs 4k --size 64k
check "the --filename file is kept" test -s "$T/iodir/named"

# ---- show -o that is the input ----
cp "$R/r.json" "$T/r.copy"
ln -s r.json "$R/alias.json"
check_exit "show R -o R" 2 "$SB" show "$R/r.json" -o "$R/r.json"
check_one_line "show R -o R: one line" "is the input"
check_exit "show R -o a link to R" 2 "$SB" show "$R/r.json" --format html -o "$R/alias.json"
check "show -o the input: the result file is unchanged" cmp -s "$R/r.json" "$T/r.copy"
check_exit "show NAME -o the file it names" 2 "$SB" show r --results-dir "$R" -o "$R/r.json"
check "show NAME -o the file: the result file is unchanged" cmp -s "$R/r.json" "$T/r.copy"
cp "$T/r.copy" "$R/r.json" # so that a binary that replaced it fails only the checks above

# ---- the small ones ----
check_exit "show --sparklines --format csv is refused" 2 "$SB" show "$R/r.json" --sparklines --format csv
check_one_line "sparklines with csv: one line naming the conflict" "sparklines"
check_exit "show --sparklines --overview is refused" 2 "$SB" show "$R/r.json" --sparklines --overview
check_exit "show --sparklines (text) still works" 0 "$SB" show "$R/r.json" --sparklines
check_exit "show -o '' is a usage error" 2 "$SB" show "$R/r.json" -o ''
check_one_line "show -o '': one line" "-o"
printf '{"format":"storbench-result","schema_version":1,"systems":[],"results":[]}\n' >"$T/empty.json"
check_exit "compare of a file without identifiers" 1 "$SB" compare "$T/empty.json"
check_exit "compare of a file without identifiers, --base X: the same" 1 "$SB" compare "$T/empty.json" --base X
check_one_line "compare empty: one line" "no identifiers"
check_exit "compare --base of an identifier the file lacks: usage" 2 "$SB" compare "$R/r.json" --base "no such id"
check_exit "dd --data maybe" 2 "$SB" dd "$T" --data maybe
check_one_line "dd --data maybe: one line" "data=maybe"
check "dd --data maybe: no doubled prefix" sh -c "! grep -q 'dd: dd:' '$T/err'"
"$SB" list dbench >"$T/list" 2>&1
qw=$(awk '$1 == "warmup" { print $NF }' "$T/list")
qt=$(awk '$1 == "time" { print $NF }' "$T/list")
check "docs/workloads.md gives dbench's quick warm-up as list does ($qw)" \
    grep -q "(default 120, quick $qw)" "$SRC/docs/workloads.md"
check "docs/workloads.md gives dbench's quick time as list does ($qt)" \
    grep -q "(default 600, quick $qt)" "$SRC/docs/workloads.md"

# ---- symlinks in a sticky world-writable directory, as root against another user ----
if [ "$(id -u)" != 0 ]; then
    ok "symlink cases (skipped: need root) # SKIP"
    finish
fi
ATT=sbattacker
if ! id "$ATT" >/dev/null 2>&1; then
    useradd -r -M -s /usr/sbin/nologin "$ATT" 2>/dev/null || true
fi
if ! id "$ATT" >/dev/null 2>&1; then
    ok "symlink cases (skipped: cannot create the user $ATT) # SKIP"
    finish
fi
# The kernel's own rule off for the test (restored on exit), so that what is tested is
# storbench's; if it cannot be changed the cases still run.
old_ps=$(sysctl -n fs.protected_symlinks 2>/dev/null)
if [ -n "$old_ps" ] && sysctl -qw fs.protected_symlinks=0 2>/dev/null; then
    trap 'sysctl -qw fs.protected_symlinks='"$old_ps"'; rm -rf "$T"' EXIT
    ok "fs.protected_symlinks=0 for the test (was $old_ps)"
else
    ok "fs.protected_symlinks left at ${old_ps:-unknown}: storbench's rule and the kernel's both apply # SKIP"
fi
chmod 0711 "$T" # the attacker reaches the sticky directory, nothing else of $T
ST=$T/sticky
mkdir "$ST" && chmod 1777 "$ST"
# plant NAME TARGET [DIR]: the attacker makes DIR/NAME -> TARGET
plant() {
    local d=${3:-$ST}
    if command -v setpriv >/dev/null; then
        setpriv --reuid="$ATT" --regid="$ATT" --clear-groups ln -s "$2" "$d/$1"
    else
        ln -s "$2" "$d/$1" && chown -h "$ATT:" "$d/$1"
    fi
}
# reset_victim before each case, so that a binary that failed one fails only that one
reset_victim() { echo "root's precious file" >"$T/victim"; }
reset_victim
vsum=$(md5sum <"$T/victim")
victim_intact() { test "$(md5sum <"$T/victim")" = "$vsum"; }

plant page.html "$T/victim"
check "the attacker's link exists" test -L "$ST/page.html" -a "$(stat -c %U "$ST/page.html")" = "$ATT"
check_exit "show -o through the attacker's link is refused" 1 "$SB" show "$R/r.json" -o "$ST/page.html"
check_one_line "show -o refused: one line" "not following the symlink"
check "show -o: the victim is unchanged" victim_intact
check "show -o: the link is left as it was" test -L "$ST/page.html"

reset_victim
plant res.json "$T/victim"
check_exit "run --result through the attacker's link is refused" 1 \
    "$SB" run dd --quick --runs 1 -o count=8 -t "$T/iodir" --result "$ST/res.json" -i x
check_one_line "run --result refused: one line" "not following the symlink"
check "run --result: refused before measuring" sh -c "! grep -q MB/s '$T/out'"
check "run --result: the victim is unchanged" victim_intact
reset_victim
check_exit "run -r through the attacker's link is refused" 1 \
    "$SB" run dd --quick --runs 1 -o count=8 -t "$T/iodir" -r "$ST/res.json" -i x
check "run -r: the victim is unchanged" victim_intact
# a dangling link that would create a file where it points
plant new.json "$T/created-by-link.json"
check_exit "run --result through a dangling attacker link is refused" 1 \
    "$SB" run dd --quick --runs 1 -o count=8 -t "$T/iodir" --result "$ST/new.json" -i x
check "nothing is created where the dangling link points" test ! -e "$T/created-by-link.json"

reset_victim
plant storbench-io.0 "$T/victim"
plant storbench-io.1 "$T/victim.1"
check_exit "io --directory on the sticky directory with planted links" 0 \
    "$SB" io --directory "$ST" --rw write --bs 4k --size 64k --numjobs 2
check "io --directory: the victim is unchanged" victim_intact
check "io --directory: nothing created where a link points" test ! -e "$T/victim.1"
check "io --directory: the attacker's links are left alone" test -L "$ST/storbench-io.0" -a -L "$ST/storbench-io.1"
reset_victim
plant job.dat "$T/victim"
check_exit "io --filename through the attacker's link is refused" 1 \
    "$SB" io --filename "$ST/job.dat" --rw write --bs 4k --size 64k
check_one_line "io --filename refused: one line" "not following the symlink"
check "io --filename: the victim is unchanged" victim_intact

# A link of the caller's own (root) in the same directory is followed, as the kernel would.
echo "old" >"$T/mine.html"
ln -s "$T/mine.html" "$ST/mine.html"
check_exit "show -o through root's own link is followed" 0 "$SB" show "$R/r.json" --format html -o "$ST/mine.html"
check "root's link: the file it points to got the page" grep -q "<html" "$T/mine.html"
check "root's link stays a link" test -L "$ST/mine.html"
# So is a link of the directory's owner: a sticky world-writable directory of the attacker's.
AD=$T/attackers
mkdir "$AD" && chown "$ATT:" "$AD" && chmod 1777 "$AD"
echo "old" >"$T/theirs.html"
plant page.html "$T/theirs.html" "$AD"
check_exit "show -o through the directory owner's link is followed" 0 "$SB" show "$R/r.json" --format html -o "$AD/page.html"
check "directory owner's link: followed" grep -q "<html" "$T/theirs.html"
finish
