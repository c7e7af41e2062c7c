#!/bin/bash
# CLI test of the fio-wild corpus (tests/data/fio-wild: other people's fio job files, in
# dev, heldout, dev2, heldout2, dev3, heldout3, dev4, heldout4, dev5 and heldout5): `storbench io --parse-only` on every file, each from an
# empty working directory, either accepts it (exit 0) or refuses it as bad input (exit 2,
# one line naming the cause) — never a runtime failure, a crash or a hang — and leaves
# nothing behind; and every file listed in accepted.txt (those accepted when the list was
# written) is still accepted, so a change that loses one of them fails here. More files
# accepted than listed is no failure: regenerate the list with the loop below when it grows.
. "$(dirname "$0")/lib.sh"

W="$SRC/tests/data/fio-wild"
: >"$T/acc"
bad= left= n=0 nacc=0
for d in dev heldout dev2 heldout2 dev3 heldout3 dev4 heldout4 dev5 heldout5; do
    for f in "$W/$d"/*; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        rm -rf "$T/cwd"
        mkdir "$T/cwd"
        (cd "$T/cwd" && timeout 20 "$SB_BIN" io --parse-only "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" \
            >/dev/null 2>"$T/err")
        rc=$?
        lines=$(grep -v '^storbench: warning:' "$T/err" | grep -c .)
        if [ $rc = 0 ]; then
            nacc=$((nacc + 1))
            echo "$d/$(basename "$f")" >>"$T/acc"
        elif [ $rc != 2 ] || [ "$lines" != 1 ]; then
            bad="$bad $d/$(basename "$f")(exit $rc, $lines lines)"
        fi
        [ -z "$(ls -A "$T/cwd")" ] || left="$left $d/$(basename "$f")"
    done
done
echo "# fio-wild: $nacc of $n accepted"
check "the corpus has its 414 files ($n)" test "$n" -ge 414
check "each file accepted, or refused with exit 2 and one line${bad:+:$bad}" test -z "$bad"
check "parse-only leaves nothing in the working directory${left:+:$left}" test -z "$left"
lost=$(sort "$T/acc" | comm -23 <(sort "$W/accepted.txt") -)
check "every file of accepted.txt is still accepted${lost:+ (lost: $(echo $lost))}" test -z "$lost"
finish
