#!/bin/bash
# Every input is read in time linear in its size, whatever its shape (issue 24 item 12:
# one 512 KiB line of " MB/s > Higher Is Better" took 9.8 s to refuse, 1 MiB 49 s).
# Generated pages of 2 MiB, each one long line or many short lines of one pattern, go
# through `import` (text and dd-wiki readers) under a generous timeout: a linear reader
# ends in well under a second, a quadratic one runs for hours. The bound is a hang
# detector, not a timing assertion; the exit must be 0 or 1 (a refusal), never a kill.
. "$(dirname "$0")/lib.sh"
SIZE=${SB_SHAPES_SIZE:-2097152}
LIMIT=${SB_SHAPES_TIMEOUT:-30}

# shape NAME PATTERN SEPARATOR: PATTERN repeated to SIZE bytes, joined by SEPARATOR.
shape() {
    python3 - "$SIZE" "$2" "$3" >"$T/$1.txt" <<'PY'
import sys
size, pat, sep = int(sys.argv[1]), sys.argv[2].encode().decode('unicode_escape'), sys.argv[3].encode().decode('unicode_escape')
unit = pat + sep
sys.stdout.write(unit * (size // len(unit) + 1))
PY
}
# one NAME PATTERN: one long line; many NAME PATTERN: one pattern a line.
one()  { shape "$1-line" "$2" ""; }
many() { shape "$1-lines" "$2" "\\n"; }

patterns=(
    "phrase-hib| MB/s > Higher Is Better"
    "phrase-lib| Seconds < Lower Is Better"
    "row|Single Disk ..... 67.63 |====="
    "dots|......"
    "bars|=====|"
    "system|Box: Processor: P, OS: O "
    "legend|=== [1] imported: SQLite 3.8.10.2"
    "title|SQLite 3.8.10.2 Test Target: Default "
    "kv|, Key: value"
    "version|1.2.3 "
    "se|    SE +/- 0.15, N = 3"
    "wiki-direct|Direct write: 1073741824 bytes (1.1 GB) copied, 23.8766 s, 45.0 MB/s"
    "wiki-heading|====X===="
    "wiki-code|<code>"
    "letters|abcdefghij"
)
for p in "${patterns[@]}"; do
    name=${p%%|*}; pat=${p#*|}
    one "$name" "$pat"
    many "$name" "$pat"
done
# a real page many times over: the seeds' text, repeated to SIZE, as one page
python3 - "$SIZE" "$SEEDS"/001_*.txt >"$T/seed001-repeat.txt" <<'PY'
import sys
size = int(sys.argv[1]); s = open(sys.argv[2]).read()
head, body = s.split('\n\n\nSQLite', 1)
body = '\n\n\nSQLite' + body
out = [head]; n = len(head); i = 0
while n < size:
    chunk = body.replace('Single Disk', 'Single Disk %d' % i).replace('2-Disk', '2-Disk-%d' % i)
    out.append(chunk); n += len(chunk); i += 1
sys.stdout.write(''.join(out))
PY
tr -s ' \n\t' ' ' <"$T/seed001-repeat.txt" >"$T/seed001-flat.txt"
# one flattened result with rows all the way, and many systems named by rows before them
python3 - "$SIZE" >"$T/flat-rows.txt" <<'PY'
import sys
size = int(sys.argv[1]); n = size // 40
sys.stdout.write('T D ' + ''.join('Box %d: Processor: P OS: O ' % i for i in range(n // 2)))
sys.stdout.write('R 1.0 O MB/s > Higher Is Better ' + ''.join('Box %d . 1.00 |= ' % i for i in range(n // 2)))
PY

[ -n "${SB_SHAPES_KEEP:-}" ] && cp "$T"/*.txt "$SB_SHAPES_KEEP"/
for f in "$T"/*.txt; do
    name=$(basename "$f" .txt)
    for fmt in auto dd-wiki; do
        timeout "$LIMIT" "$SB" import "$f" --result "r-$name-$fmt" --format "$fmt" \
            --results-dir "$T/r" >"$T/out" 2>"$T/err"
        rc=$?
        case $name-$fmt in seed001-*-auto | flat-rows-auto)
            # whole pages: they import
            if [ "$rc" -eq 0 ]; then ok "import of $name imports"; else not_ok "import of $name: exit $rc: $(head -c 200 "$T/err")"; fi
            continue ;;
        esac
        if [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; then
            ok "import --format $fmt of $name ($(wc -c <"$f") bytes) ends (exit $rc)"
        else
            not_ok "import --format $fmt of $name: exit $rc (124: still reading after $LIMIT s)"
        fi
    done
done
finish
