#!/bin/bash
# CLI tests of io's option table (src/io/options/options.c): the man page's and docs/io.md's option
# lists are what the table generates (scripts/gen-io-options --check); --help, --cmdhelp,
# both value spellings; the refusals of the safety issue's item 11 (each exit 2 at once, one
# line naming the option, nothing created); the fio workload through the same entries; and
# the progress line on a terminal, which --quiet turns off.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }
D="$T/target"
mkdir -p "$D"

# ---- the documents say what the table says ----
if sh "$SRC/scripts/gen-io-options" --check "$SB_BIN" "$SRC" 2>"$T/gen.err"; then
    ok "man page and docs/io.md list io's options as the table does"
else
    not_ok "man page and docs/io.md list io's options as the table does ($(head -c 400 "$T/gen.err"))"
fi

# ---- usage, --cmdhelp, value spellings ----
check_exit "io --help" 0 "$SB" io --help
check "--help: the steady-state limit as typed (LIMIT[%])" grep -qF 'LIMIT[%]' "$T/out"
check "--help: no doubled %" sh -c "! grep -qF '%%' '$T/out'"
check_exit "io --cmdhelp" 0 "$SB" io --cmdhelp
check "--cmdhelp lists every option" grep -q '^iodepth_batch_complete_min *: ' "$T/out"
check_exit "io --cmdhelp=iodepth" 0 "$SB" io --cmdhelp=iodepth
check "--cmdhelp=iodepth: type, range, default" \
    sh -c "grep -q 'type: integer' '$T/out' && grep -q 'range: 1 .. 65536' '$T/out' && grep -q 'default: 1' '$T/out'"
check_exit "io --cmdhelp=nosuch" 2 "$SB" io --cmdhelp=nosuch
check_one_line "--cmdhelp of an unknown option: one line" "nosuch"
check_exit "io --name=value and --name value, aliases" 0 "$SB" io --bs=8k --size 64k --readwrite=randrw \
    --seed 7 --directory "$D" --output-format=storbench-json
check "values reached the job" jqok '.job.bs_bytes == 8192 and .job.size_bytes == 65536 and .job.rw == "randrw" and .job.randseed == 7' "$T/out"
check_exit "io bad value: one line naming the option" 2 "$SB" io --iodepth 0 --directory "$D"
check_one_line "io bad value: one line" "iodepth: '0' is not in 1 .. 65536"

# ---- refused at once (issue 24, item 11): exit 2, one line, nothing made ----
refuse() { # NAME WORD ARGS...: exit 2 with one line mentioning WORD
    local name=$1 word=$2; shift 2
    check_exit "refused: $name" 2 "$SB" io --size 64k --directory "$D" "$@"
    check_one_line "refused: $name: one line" "$word"
}
refuse "--ss_round 0" "ss_round" --ss_round 0
refuse "--ss_round 0 with snia" "ss_round" --steadystate snia --ss_round 0 --runtime 1
refuse "--log_interval 0" "log_interval" --log_interval 0
refuse "--iodepth_batch_complete_min above --iodepth" "iodepth_batch_complete_min" \
    --ioengine libaio --iodepth 4 --iodepth_batch_complete_min 8
refuse "--registerfiles=1 with psync" "registerfiles" --ioengine psync --registerfiles=1
refuse "--fixedbufs=1 with libaio" "fixedbufs" --ioengine libaio --fixedbufs=1
refuse "--stonewall outside MPI" "stonewall" --stonewall 1
refuse "--shared-file outside MPI" "shared-file" --shared-file
check "refusals created nothing" test -z "$(ls -A "$D")"
check_exit "--registerfiles=0 with psync is fine" 0 "$SB" io --size 64k --directory "$D" --registerfiles=0
check_exit "complete_min equal to the depth is fine" 0 "$SB" io --size 64k --directory "$D" \
    --ioengine libaio --iodepth 4 --iodepth_batch_complete_min 4

# ---- the fio workload: the same entries, refused at validate ----
check_exit "run fio -o runtime=0 refused at once" 2 "$SB" run fio --target "$D" --result "$T/r.json" -i x \
    -n 1 --exact-runs -o runtime=0 -o size=1m -o startdelay=0 -o ramp=0
check_one_line "run fio -o runtime=0: one line" "runtime"
check "run fio -o runtime=0: no result file" test ! -e "$T/r.json"
check_exit "run fio -o iodepth=0" 2 "$SB" run fio --target "$D" -o iodepth=0
check_one_line "run fio -o iodepth=0: the entry's line" "fio: iodepth: '0' is not in 1 .. 65536"
check_exit "run fio -o ss_round=0 with snia" 2 "$SB" run fio --target "$D" -o steadystate=snia -o ss_round=0
check_one_line "run fio ss_round=0: one line" "ss_round"

# ---- progress on a terminal (script(1) gives the job one), and --quiet ----
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    job="'$SB_BIN' io --rw read --size 1m --runtime 1500ms --time_based --directory '$D'"
    script -qec "$job" /dev/null >"$T/tty.out" 2>&1
    check "io on a terminal: fio's progress line" grep -aq 'Jobs: 1 (f=1): \[R(1)\]\[[0-9.]*%\]\[r=.*\]\[eta 00m:0[0-9]s\]' "$T/tty.out"
    check "io on a terminal: the summary too" grep -aq '^  read: IOPS=' "$T/tty.out"
    script -qec "$job --quiet" /dev/null >"$T/quiet.out" 2>&1
    check "io --quiet: no progress line" sh -c "! grep -aq 'Jobs:' '$T/quiet.out'"
    check "io --quiet: the summary still" grep -aq '^  read: IOPS=' "$T/quiet.out"
else
    ok "# skip: script(1) cannot give a terminal here (progress line)"
fi
check_exit "io not on a terminal: no progress line" 0 "$SB" io --rw read --size 64k --directory "$D"
check "no progress line off a terminal" sh -c "! grep -q 'Jobs:' '$T/err'"
finish
