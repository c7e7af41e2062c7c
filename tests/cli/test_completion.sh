#!/bin/bash
# completions/storbench.bash against the program: at the first word it offers
# exactly the commands of src/main.c's table; for each command it offers, for
# every entry of that command's getopt tables (src/cli/CMD.c), that option or an
# alias of it (same value), and nothing the command refuses as unknown; after
# `run` and `list` it offers every test and suite. Nothing is measured: each
# offered option is given alone, so the commands stop at a usage error.
. "$(dirname "$0")/lib.sh"

# complete WORD...: the words bash would offer for the command line WORD... (last word
# being completed), one per line.
complete_line() {
    bash -c '. "$1/completions/storbench.bash"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
             _storbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC" "$@"
}

want=$(sed -n 's/^ *{"\([a-z0-9]*\)", ".*", sb_cmd_[a-z0-9]*},$/\1/p' "$SRC/src/main.c" | sort)
got=$(complete_line "$SB_BIN" "" | grep -v '^--' | sort)
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "commands = main.c's table"; else
    not_ok "commands = main.c's table (want: $(echo $want), got: $(echo $got))"; fi

for cmd in $want; do
    offered=$(complete_line "$SB_BIN" "$cmd" --)
    # "name val" per entry of the file's option tables
    pairs=$(awk '/struct option [a-z_]*\[\] = \{/ { on = 1; next } on && /\{NULL/ { on = 0 }
                 on && match($0, /\{"[a-z0-9_-]+", *[a-z_]+, *NULL, *[^}]+\}/) {
                     e = substr($0, RSTART + 2, RLENGTH - 3); split(e, f, /"?, */); gsub(/ /, "", f[4]);
                     print f[1], f[4] }' "$SRC/src/cli/$cmd.c")
    # io's job options are the io option table's (src/io/options/options.c), which --cmdhelp lists
    [ "$cmd" = io ] && pairs="$pairs
$("$SB_BIN" io --cmdhelp | awk -F ' *: ' '$1 ~ /^[a-z0-9_-]+$/ && NF > 1 { print $1, $1 }')"
    # the entries (by value) none of whose names is offered, as "--name|--alias" each
    missing=$(awk 'NR == FNR { offered[$0] = 1; next }
                   NF >= 2 { names[$2] = names[$2] (names[$2] == "" ? "" : "|") "--" $1; if (offered["--" $1]) hit[$2] = 1 }
                   END { for (v in names) if (!hit[v]) print v, names[v] }' <(echo "$offered") <(echo "$pairs") |
              sort | awk '{ printf " %s", $2 }')
    [ -n "$pairs" ] && [ -z "$missing" ] && ok "$cmd: every option offered" ||
        not_ok "$cmd: every option offered (missing:${missing:- no option table found})"
    refused=""
    for o in $offered; do
        args=("$cmd" "$o"); [ "$cmd" = scenario ] && args=(scenario run "$o")
        # io parses the line and runs nothing (--parse-only): an unknown option is refused
        # as it is without it; a job, if one ran, would name a file in the scratch directory
        [ "$cmd" = io ] && args=(io --parse-only --size=4k --number_ios=1 --quiet "$o")
        (cd "$T" && timeout 20 "$SB" "${args[@]}" </dev/null 2>&1) | grep -q "unknown option '$o'" &&
            refused="$refused $o"
    done
    [ -z "$refused" ] && ok "$cmd: every offered option is accepted" ||
        not_ok "$cmd: every offered option is accepted (refused:$refused)"
done

names=$("$SB_BIN" list --format json | jq -r '.tests[].name, .suites[].name, .pts_profiles[].profile' | sort)
for cmd in run list; do
    got=$(complete_line "$SB_BIN" "$cmd" "" | sort)
    [ -n "$names" ] && [ "$names" = "$got" ] && ok "$cmd: every test and suite offered" ||
        not_ok "$cmd: every test and suite offered (got: $(echo $got))"
done
got=$(complete_line "$SB_BIN" run --re)
[ "$(echo $got)" = "--replace --require-all --result --results-dir" ] && ok "run --re completes" ||
    not_ok "run --re completes (got: $(echo $got))"
finish
