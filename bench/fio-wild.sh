#!/bin/bash
# fio-wild — how much of what fio users already have does storbench take?
#
#   bench/fio-wild.sh [files] [--list] [--tsv] [DIR...]
#       For each DIR (default: tests/data/fio-wild/dev, heldout, dev2, heldout2, dev3,
#       heldout3, dev4, heldout4, dev5 and heldout5)
#       runs `storbench io --parse-only FILE` on every file in it, each from an empty
#       scratch working directory, and prints "DIR: A of B accepted" and the refusal
#       reasons grouped, most frequent first. A file is accepted when storbench exits 0
#       (warnings allowed). The reason is the first error line with storbench's
#       "storbench: io: FILE:LINE:" / "JOB (FILE:LINE):" prefix taken off, cut at its first
#       ": " or " (" ("no filename or directory: give --directory ..." -> "no filename or
#       directory"), and with quoted values replaced by '...' when the line names an option
#       ("size: '95%' is not a size" -> "size: '...' is not a size"); "unknown option 'X'"
#       is kept whole. One example (file and, for '...', the value) is shown per reason.
#       --list: one line per file as well (STATE NAME REASON).
#       --tsv: only the per-file lines, tab-separated: SET NAME accepted|refused REASON.
#
#   bench/fio-wild.sh options [--tsv]
#       Lists fio's job options (`fio --cmdhelp=all`) and tries for each the values
#       the default --cmdhelp shows, 1, 0, 4k, the first of its valid values and "x", in
#       that order; each one fio's own parser accepts in a one-job file is given to
#       `storbench io --parse-only` in the same file, and the option counts as accepted
#       when storbench takes one of them. The file is
#           [probe]
#           filename=probe.dat      (left out for filename and directory; directory=.
#           size=1m                  instead for filename_format and opendir; size left
#                                    out for size itself)
#           OPTION=VALUE
#       Prints "options: N of M accepted" (M = options fio accepts a probe value for) and
#       the options storbench refuses, each with the value and storbench's message.
#       --tsv: only OPTION VALUE accepted|refused|no-fio-value MESSAGE lines.
#
#   SB=./storbench FIO=fio TIMEOUT=20
# Needs bash and coreutils only (and fio for the options mode). Exit 0 when it ran,
# 1 when storbench (or fio, for options) is missing.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SB=${SB:-./storbench}
FIO=${FIO:-fio}
TIMEOUT=${TIMEOUT:-20}
MODE=files
case "${1:-}" in options|files) MODE=$1; shift ;; esac
LIST=0 TSV=0
while [ $# -gt 0 ]; do
    case "$1" in
        --list) LIST=1; shift ;;
        --tsv) TSV=1; shift ;;
        --) shift; break ;;
        -*) echo "fio-wild: unknown flag $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ -x "$SB" ] || { echo "fio-wild: $SB not built (make), or set SB" >&2; exit 1; }
SB=$(cd "$(dirname "$SB")" && pwd)/$(basename "$SB")
W=$(mktemp -d /var/tmp/sb-fiowild.XXXXXX)
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM HUP

# A fresh, empty working directory for one run.
scratch() {
    rm -rf "$W/cwd"
    mkdir "$W/cwd"
}

# The first error line of storbench's stderr (not a warning), else the first line.
first_error() {
    local l
    l=$(grep -v '^[[:space:]]*$' "$1" | grep -v '^storbench: warning:' | head -1)
    [ -n "$l" ] || l=$(grep -v '^[[:space:]]*$' "$1" | head -1)
    printf '%s' "$l"
}

# The message without storbench's prefix naming the file, job and line.
strip_prefix() {
    sed -e 's/^storbench: //' -e 's/^io: //' \
        -e 's/^[^ ]* ([^()]*:[0-9]*): //' \
        -e 's/^[^ ]*:[0-9][0-9]*: //' \
        -e 's/^\/[^:]*: //'
}

# The grouping key of a message (see the header).
reason_key() {
    local m=$1
    case "$m" in
        "unknown option "*) printf '%s' "${m:0:70}"; return ;;
    esac
    if [[ $m =~ ^[A-Za-z0-9_]+:\ \' ]]; then
        printf '%s' "$m" | sed "s/'[^']*'/'...'/g" | cut -c1-56
        return
    fi
    m=${m%%: *}
    printf "%s" "${m%% (*}" | cut -c1-70
}

# The first quoted value of a message (the example of a '...' key).
first_quoted() {
    printf '%s' "$1" | sed -n "s/^[^']*'\([^']*\)'.*/\1/p"
}

files_mode() {
    local dirs=("$@") d f name rc err msg key ex acc tot
    [ ${#dirs[@]} -gt 0 ] || dirs=("$ROOT/tests/data/fio-wild/dev" "$ROOT/tests/data/fio-wild/heldout" \
        "$ROOT/tests/data/fio-wild/dev2" "$ROOT/tests/data/fio-wild/heldout2" \
        "$ROOT/tests/data/fio-wild/dev3" "$ROOT/tests/data/fio-wild/heldout3" \
        "$ROOT/tests/data/fio-wild/dev4" "$ROOT/tests/data/fio-wild/heldout4" \
        "$ROOT/tests/data/fio-wild/dev5" "$ROOT/tests/data/fio-wild/heldout5")
    for d in "${dirs[@]}"; do
        [ -d "$d" ] || { echo "fio-wild: no directory $d" >&2; continue; }
        d=$(cd "$d" && pwd)
        acc=0 tot=0
        : > "$W/reasons"
        : > "$W/perfile"
        for f in "$d"/*; do
            [ -f "$f" ] || continue
            case "$f" in *.md|*README*) continue ;; esac
            name=$(basename "$f")
            tot=$((tot + 1))
            scratch
            (cd "$W/cwd" && timeout "$TIMEOUT" "$SB" io --parse-only "$f" >/dev/null 2>"$W/err")
            rc=$?
            if [ $rc = 0 ]; then
                acc=$((acc + 1))
                printf '%s\t%s\taccepted\t\n' "$(basename "$d")" "$name" >> "$W/perfile"
                continue
            fi
            if [ $rc = 124 ]; then
                msg="timed out after ${TIMEOUT}s"
            else
                msg=$(first_error "$W/err" | strip_prefix)
                [ -n "$msg" ] || msg="exit $rc without a message"
            fi
            key=$(reason_key "$msg")
            ex=$name
            case "$key" in *"'...'"*) ex="$name ('$(first_quoted "$msg")')" ;; esac
            printf '%s\t%s\n' "$key" "$ex" >> "$W/reasons"
            printf '%s\t%s\trefused\t%s\n' "$(basename "$d")" "$name" "$msg" >> "$W/perfile"
        done
        if [ $TSV = 1 ]; then
            cat "$W/perfile"
            continue
        fi
        echo "$(basename "$d") ($d): $acc of $tot accepted ($(( tot ? acc * 100 / tot : 0 ))%)"
        if [ -s "$W/reasons" ]; then
            printf '  %5s  %-56s %s\n' count reason example
            # count per key, most frequent first (ties by key), first example of each
            sort -t $'\t' -k1,1 -s "$W/reasons" | awk -F'\t' '
                $1 != k { if (k != "") print n "\t" k "\t" e; k = $1; n = 0; e = $2 }
                { n++ }
                END { if (k != "") print n "\t" k "\t" e }' |
                sort -t $'\t' -k1,1nr -k2,2 |
                while IFS=$'\t' read -r n k e; do printf '  %5d  %-56s %s\n' "$n" "$k" "$e"; done
        fi
        if [ $LIST = 1 ]; then
            awk -F'\t' '{ printf "  %-8s %-48s %s\n", $3, $2, $4 }' "$W/perfile"
        fi
        echo
    done
}

# One-job probe file for OPTION=VALUE.
probe_file() {
    local opt=$1 val=$2
    {
        echo "[probe]"
        case "$opt" in
            filename|directory) ;;
            filename_format|opendir) echo "directory=." ;;
            *) echo "filename=probe.dat" ;;
        esac
        [ "$opt" = size ] || echo "size=1m"
        echo "$opt=$val"
    } > "$W/probe.fio"
}

fio_accepts() {
    probe_file "$1" "$2"
    scratch
    (cd "$W/cwd" && timeout "$TIMEOUT" "$FIO" --parse-only "$W/probe.fio" >/dev/null 2>&1)
}

options_mode() {
    command -v "$FIO" >/dev/null || { echo "fio-wild: $FIO not found" >&2; exit 1; }
    local opts opt def v1 val ok seen cand rc msg n=0 m=0 none=0 total=0
    # the base file alone must be taken by both, or every probe measures the base
    probe_file description base
    scratch
    (cd "$W/cwd" && "$SB" io --parse-only "$W/probe.fio" >/dev/null 2>"$W/err") ||
        { echo "fio-wild: storbench refuses the probe's base file: $(first_error "$W/err")" >&2; exit 1; }
    opts=$("$FIO" --cmdhelp=all 2>&1 | sed -n 's/^ *\([A-Za-z0-9_-]*\) *:.*/\1/p' | awk '!s[$0]++')
    : > "$W/refused"
    for opt in $opts; do
        total=$((total + 1))
        def=$("$FIO" --cmdhelp="$opt" 2>&1 | sed -n 's/^ *default: //p' | head -1)
        [ "$def" = "no default" ] && def=
        v1=$("$FIO" --cmdhelp="$opt" 2>&1 | sed -n 's/^ *valid values: \([^ ]*\).*/\1/p' | head -1)
        val= ok= msg= seen=" "
        for cand in "$def" 1 0 4k "$v1" x; do
            [ -n "$cand" ] || continue
            case "$seen" in *" $cand "*) continue ;; esac
            seen="$seen$cand "
            fio_accepts "$opt" "$cand" || continue
            [ -n "$val" ] || val=$cand
            probe_file "$opt" "$cand"
            scratch
            (cd "$W/cwd" && timeout "$TIMEOUT" "$SB" io --parse-only "$W/probe.fio" >/dev/null 2>"$W/err")
            rc=$?
            if [ $rc = 0 ]; then ok=$cand; break; fi
            if [ -z "$msg" ]; then
                msg=$(first_error "$W/err" | strip_prefix)
                [ $rc = 124 ] && msg="timed out after ${TIMEOUT}s"
            fi
        done
        if [ -z "$val" ]; then
            none=$((none + 1))
            [ $TSV = 1 ] && printf '%s\t\tno-fio-value\t\n' "$opt"
            continue
        fi
        m=$((m + 1))
        if [ -n "$ok" ]; then
            n=$((n + 1))
            [ $TSV = 1 ] && printf '%s\t%s\taccepted\t\n' "$opt" "$ok"
        else
            printf '%s\t%s\t%s\n' "$opt" "$val" "$msg" >> "$W/refused"
            [ $TSV = 1 ] && printf '%s\t%s\trefused\t%s\n' "$opt" "$val" "$msg"
        fi
    done
    [ $TSV = 1 ] && return
    echo "options: $n of $m accepted ($(( m ? n * 100 / m : 0 ))%) — fio --cmdhelp=all lists $total, fio took none of the probe values for $none"
    if [ -s "$W/refused" ]; then
        echo "refused by storbench (option=value: message):"
        awk -F'\t' '{ printf "  %s=%s: %s\n", $1, $2, $3 }' "$W/refused"
    fi
}

case $MODE in
    files) files_mode "$@" ;;
    options) options_mode ;;
esac
exit 0
