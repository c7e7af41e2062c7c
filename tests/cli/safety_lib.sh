# safety_lib.sh — trials of the promise "no command loses what another saved in the same
# result file", shared by tests/cli/test_safety_concurrency.sh (a few of each kind) and
# bench/safety.sh (many). Source it after lib.sh (it needs $SB, $T and $SEEDS). Each
# trial_* function starts its commands at once against a fresh result file, waits for all
# of them, and returns 0 when every command exited 0 and every identifier each one added
# is in the file (and no lock or temporary file is left beside it), else 1 with the
# reason in $SAFETY_WHY. The commands are the quickest that save: `run dd` at 8 blocks of
# 2 MiB, one run, and imports of the seed pages (14, 6 and 15 systems).

SAFETY_WHY=""
SAFETY_TARGET=$T/safety-target
mkdir -p "$SAFETY_TARGET"
SAFETY_PAGES="$SEEDS/000_a97674fdc4297efd.txt $SEEDS/001_5b3cf86a040befc6.txt $SEEDS/004_b63bb00861e0ff85.txt"

# The identifiers of a result file, one a line, sorted.
safety_ids() { jq -r '.systems[].identifier' "$1" 2>/dev/null | LC_ALL=C sort; }

# The identifiers of a seed page, as import would add them (cached per page).
safety_page_ids() {
    local page=$1 cache
    cache=$T/safety-ids.$(basename "$page")
    if [ ! -s "$cache" ]; then
        rm -f "$T/safety-one.json"
        "$SB" import "$page" --result "$T/safety-one.json" >/dev/null 2>&1 &&
            safety_ids "$T/safety-one.json" >"$cache"
        rm -f "$T/safety-one.json"
    fi
    cat "$cache"
}

# Background starters: each appends "PID WHAT" to $T/safety-jobs and its expected
# identifiers to $T/safety-want.
safety_start_run() { # RESULT IDENTIFIER
    "$SB" run dd --quick --runs 1 --exact-runs -o count=8 -t "$SAFETY_TARGET" --result "$1" \
        -i "$2" >/dev/null 2>"$T/safety-err.$2" &
    echo "$! run $2" >>"$T/safety-jobs"
    echo "$2" >>"$T/safety-want"
}
safety_start_import() { # RESULT PAGE
    "$SB" import "$2" --result "$1" >/dev/null 2>"$T/safety-err.$(basename "$2")" &
    echo "$! import $(basename "$2")" >>"$T/safety-jobs"
    safety_page_ids "$2" >>"$T/safety-want"
}
safety_start_merge() { # RESULT INPUT (identifiers of INPUT are expected)
    "$SB" merge "$1" "$2" >/dev/null 2>"$T/safety-err.merge.$(basename "$2")" &
    echo "$! merge $(basename "$2")" >>"$T/safety-jobs"
    safety_ids "$2" >>"$T/safety-want"
}

safety_begin() { rm -f "$T/safety-jobs" "$T/safety-want" "$T"/safety-err.*; SAFETY_WHY=""; }

# Waits for the started commands and checks RESULT. 0 or 1 (reason in $SAFETY_WHY).
safety_end() { # RESULT
    local r=$1 pid what rc bad=0
    while read -r pid what; do
        wait "$pid"; rc=$?
        if [ "$rc" -ne 0 ]; then
            SAFETY_WHY="$SAFETY_WHY; $what exited $rc ($(cat "$T"/safety-err.* 2>/dev/null | head -c 200))"
            bad=1
        fi
    done <"$T/safety-jobs"
    local missing
    missing=$(LC_ALL=C sort -u "$T/safety-want" | LC_ALL=C comm -23 - <(safety_ids "$r"))
    if [ -n "$missing" ]; then
        SAFETY_WHY="$SAFETY_WHY; lost: $(echo "$missing" | head -3 | tr '\n' ',')$(echo "$missing" | wc -l) in all"
        bad=1
    fi
    local left
    left=$(ls -A "$(dirname "$r")" | grep -v '\.json$' || true)
    if [ -n "$left" ]; then
        SAFETY_WHY="$SAFETY_WHY; left beside the result: $left"
        bad=1
    fi
    SAFETY_WHY=${SAFETY_WHY#; }
    return $bad
}

# N runs at once into one result, each its own identifier.
trial_concurrent_runs() { # N DIR
    local n=$1 r=$2/runs.json i
    rm -f "$r"; safety_begin
    for i in $(seq 1 "$n"); do safety_start_run "$r" "run-$i"; done
    safety_end "$r"
}

# The three seed pages imported at once into one result.
trial_concurrent_imports() { # DIR
    local r=$1/imports.json p
    rm -f "$r"; safety_begin
    for p in $SAFETY_PAGES; do safety_start_import "$r" "$p"; done
    safety_end "$r"
}

# A run, a merge of another result file and an import at once, into a result that
# already has systems.
trial_merge_during_run() { # DIR
    local r=$1/mixed.json other=$T/safety-other.json
    rm -f "$r" "$other"
    "$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result "$r" >/dev/null 2>&1 || { SAFETY_WHY="setup import failed"; return 1; }
    "$SB" import "$SEEDS/004_b63bb00861e0ff85.txt" --result "$other" >/dev/null 2>&1 || { SAFETY_WHY="setup import failed"; return 1; }
    safety_begin
    safety_ids "$r" >>"$T/safety-want"
    safety_start_run "$r" "run-a"
    safety_start_merge "$r" "$other"
    safety_start_run "$r" "run-b"
    safety_start_import "$r" "$SEEDS/000_a97674fdc4297efd.txt"
    safety_end "$r"
}

# Trial number K of the cycle the tests and bench/safety.sh use: runs (4 at once),
# imports (3 at once), merge and import during runs.
safety_trial() { # K DIR
    case $(($1 % 3)) in
    0) trial_concurrent_runs 4 "$2" ;;
    1) trial_concurrent_imports "$2" ;;
    2) trial_merge_during_run "$2" ;;
    esac
}
safety_trial_name() {
    case $(($1 % 3)) in 0) echo "4 concurrent runs" ;; 1) echo "3 concurrent imports" ;; 2) echo "merge and import during 2 runs" ;; esac
}

# K commands at once (bench/safety.sh), each a run, an import or a merge drawn with
# $RANDOM, into a result that holds systems half of the time. Each import is of a page not
# yet imported in the trial (a page twice would collide on its identifiers) and each merge
# input is page 004 with its identifiers renamed, so that every command has its own.
# Sets SAFETY_MIX to what was started ("run import merge ...").
SAFETY_MIX=""
trial_concurrent_mix() { # K DIR
    local k=$1 r=$2/mix.json i kind pages unused=() p in
    read -ra pages <<<"$SAFETY_PAGES"
    rm -f "$r"
    SAFETY_MIX=""
    if [ $((RANDOM % 2)) = 1 ]; then
        "$SB" import "$SEEDS/001_5b3cf86a040befc6.txt" --result "$r" >/dev/null 2>&1 ||
            { SAFETY_WHY="setup import failed"; return 1; }
        for p in "${pages[@]}"; do [ "$p" = "$SEEDS/001_5b3cf86a040befc6.txt" ] || unused+=("$p"); done
        SAFETY_MIX="(on 6 systems)"
    else
        unused=("${pages[@]}")
    fi
    if [ ! -s "$T/safety-mix-base.json" ]; then
        "$SB" import "$SEEDS/004_b63bb00861e0ff85.txt" --result "$T/safety-mix-base.json" >/dev/null 2>&1 ||
            { SAFETY_WHY="setup import failed"; return 1; }
    fi
    safety_begin
    [ -s "$r" ] && safety_ids "$r" >>"$T/safety-want"
    for i in $(seq 1 "$k"); do
        kind=$((RANDOM % 3))
        [ "$kind" = 1 ] && [ ${#unused[@]} = 0 ] && kind=0
        case $kind in
        0) safety_start_run "$r" "mix-run-$i"; SAFETY_MIX="$SAFETY_MIX run" ;;
        1) p=$((RANDOM % ${#unused[@]}))
           safety_start_import "$r" "${unused[$p]}"
           unused=("${unused[@]:0:$p}" "${unused[@]:$((p + 1))}")
           SAFETY_MIX="$SAFETY_MIX import" ;;
        2) in=$T/safety-mix-in.$i.json
           jq --arg p "merged$i-" 'walk(if type == "object" and has("identifier")
               then .identifier |= $p + . else . end)' "$T/safety-mix-base.json" >"$in"
           safety_start_merge "$r" "$in"; SAFETY_MIX="$SAFETY_MIX merge" ;;
        esac
    done
    SAFETY_MIX=${SAFETY_MIX# }
    safety_end "$r"
}
