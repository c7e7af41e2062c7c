# The manual page agrees with the program: every command in `storbench --help`
# has a subsection under COMMANDS in docs/storbench.1, every long option its
# --help names appears there, and every long option that subsection documents
# is one the --help names (--help itself aside: not every usage text lists it).
# Also: the page is well-formed for man(1), and `make install` places it.
. "$(dirname "$0")/lib.sh"

MAN=$SRC/docs/storbench.1
check "man page exists" test -s "$MAN"

# The roff source with \- turned into -, so that options read as typed.
sed 's/\\-/-/g' "$MAN" >"$T/man.txt"

commands=$("$SB" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
if [ -n "$commands" ]; then ok "commands listed by --help"; else not_ok "commands listed by --help"; fi

for cmd in $commands; do
    awk -v c="$cmd" '$0 == ".SS " c { on = 1; next } /^\.S[SH] / { on = 0 } on' "$T/man.txt" >"$T/sec.$cmd"
    if [ ! -s "$T/sec.$cmd" ]; then
        not_ok "man page has a subsection for $cmd"
        continue
    fi
    ok "man page has a subsection for $cmd"
    if ! "$SB" "$cmd" --help >"$T/help.$cmd" 2>&1; then
        not_ok "$cmd --help exits 0"
        continue
    fi
    grep -oE -- '--[a-z][a-z0-9_-]*' "$T/help.$cmd" | sort -u >"$T/hopts.$cmd"
    # The man page's options are the .TP item tags (prose may name other commands' options).
    awk 'prev == ".TP" { print } { prev = $0 }' "$T/sec.$cmd" |
        grep -oE -- '--[a-z][a-z0-9_-]*' | grep -vx -- '--help' | sort -u >"$T/mopts.$cmd"
    missing=$(comm -23 "$T/hopts.$cmd" <(sort -u "$T/mopts.$cmd" <(echo --help) ) | tr '\n' ' ')
    extra=$(comm -13 "$T/hopts.$cmd" "$T/mopts.$cmd" | tr '\n' ' ')
    if [ -z "$missing" ] && grep -q -- '--help' "$T/sec.$cmd"; then ok "man documents every option of $cmd --help"
    else not_ok "man documents every option of $cmd --help (missing: ${missing:---help})"; fi
    if [ -z "$extra" ]; then ok "$cmd --help names every option the man page gives it"
    else not_ok "$cmd --help names every option the man page gives it (not in --help: $extra)"; fi
done

if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$MAN" >"$T/man.out" 2>"$T/man.err"
    if [ -s "$T/man.out" ] && [ ! -s "$T/man.err" ]; then ok "man renders the page without warnings"
    else not_ok "man renders the page without warnings ($(head -c 300 "$T/man.err"))"; fi
else
    echo "ok man renders the page without warnings # skip man not installed"
fi

# make install places the page (a dry run: the check must not rebuild or copy binaries
# in the source tree while the tests run; the rule's target path is what matters).
if make -n -C "$SRC" install DESTDIR="$T/root" PREFIX=/usr 2>"$T/install.log" |
   grep -q "docs/storbench.1 $T/root/usr/share/man/man1/storbench.1"; then ok "make install places the man page"
else not_ok "make install places the man page ($(tail -c 300 "$T/install.log"))"; fi

finish
