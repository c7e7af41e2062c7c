#!/bin/bash
# Failures that must be named and must save nothing (issue 24, items 6, 10 and 11): a
# dbench run whose operations fail (its directory removed under it) exits 1 and leaves
# the result file as it was; SQLite on a file system without free inodes names ENOSPC
# and the inodes; the free-space refusal prints the need with its margin; bad option
# values, scenario files that are not UTF-8 and a cut dd-wiki page are refused at once
# (exit 2, one line naming the cause). The checks that need a small tmpfs need root and
# are skipped visibly without it.
. "$(dirname "$0")/lib.sh"
S1=$SEEDS/001_5b3cf86a040befc6.txt
R=$T/results
mkdir -p "$R" "$T/target"
check_exit "a result file to keep" 0 "$SB" import "$S1" --result keep --results-dir "$R"
sum=$(md5sum <"$R/keep.json")

# ---- item 6: dbench whose directory is removed under it ----
# The removal repeats until the run ends, so that it does not depend on when the clients
# are between two operations; the run's time bounds the test if nothing fails.
dbench_removed() {
    "$SB" run dbench -t "$T/target" -o time=10 -o warmup=0 -o "loadfile=$1" -n 1 --exact-runs \
        --result keep --results-dir "$R" -i removed >"$T/out" 2>"$T/err" &
    local pid=$! i
    for i in $(seq 200); do
        ls -d "$T"/target/storbench-*/clients/client0 >/dev/null 2>&1 && break
        sleep 0.05
    done
    while kill -0 "$pid" 2>/dev/null; do
        rm -rf "$T"/target/storbench-*/clients/* 2>/dev/null
        sleep 0.05
    done
    wait "$pid"
}
for lf in builtin /usr/share/dbench/client.txt; do
    if [ "$lf" != builtin ] && [ ! -r "$lf" ]; then
        ok "dbench ($lf) with its directory removed (skipped: no $lf, Debian package dbench) # SKIP"
        continue
    fi
    dbench_removed "$lf"
    rc=$?
    if [ "$rc" -eq 1 ]; then ok "dbench ($lf) with its directory removed: exit 1"
    else not_ok "dbench ($lf) with its directory removed: exit $rc, wanted 1 ($(head -c 300 "$T/err"))"; fi
    check_one_line "dbench ($lf) removed: one line naming the error" "No such file or directory"
    check "dbench ($lf) removed: the line names the failed operation's line" grep -q "line [0-9]" "$T/err"
    check "dbench ($lf) removed: the result file is unchanged" test "$(md5sum <"$R/keep.json")" = "$sum"
done

# ---- item 10: failures that name their cause (a small tmpfs: root) ----
M=$T/mnt
mkdir -p "$M"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=64M,nr_inodes=2 none "$M" 2>/dev/null; then
    ok "sqlite without free inodes, fs-mark free space (skipped: needs root to mount a tmpfs) # SKIP"
else
    trap 'umount "$M" 2>/dev/null; rm -rf "$T"' EXIT
    # nr_inodes=2: the root and the run's directory; the database cannot be created. With 3,
    # the database can, its journal cannot (the first statement fails).
    for n in 2 3; do
        mount -o remount,nr_inodes=$n "$M"
        check_exit "sqlite, $n inodes: exit 1" 1 "$SB" run sqlite --quick -n 1 -t "$M" --result keep --results-dir "$R" -i inodes
        check_one_line "sqlite, $n inodes: one line naming ENOSPC" "No space left on device"
        check "sqlite, $n inodes: the line names the inodes" grep -q "no free inodes" "$T/err"
    done
    check "sqlite without inodes: the result file is unchanged" test "$(md5sum <"$R/keep.json")" = "$sum"
    umount "$M"
    # 20 files of 1 MiB need 21 MB and a margin of 17.8 MB; 32 MiB free is less than both.
    mount -t tmpfs -o size=32M none "$M"
    check_exit "fs-mark that does not fit: exit 1" 1 "$SB" run fs-mark -o test=custom -o files=20 -o size=1M \
        -t "$M" --result keep --results-dir "$R" -i full
    check_one_line "fs-mark that does not fit: one line" "No space left on device"
    need=$(sed -n 's/.*needs \([0-9.]*\) MB.*/\1/p' "$T/err")
    free=$(sed -n 's/.* \([0-9.]*\) MB free.*/\1/p' "$T/err")
    if [ -n "$need" ] && [ -n "$free" ] && awk -v n="$need" -v f="$free" 'BEGIN { exit !(n > f) }'; then
        ok "fs-mark refusal: the need it prints ($need MB) is more than what is free ($free MB)"
    else
        not_ok "fs-mark refusal: need and free as printed: '$need' '$free' ($(cat "$T/err"))"
    fi
    check "fs-mark refusal: nothing made on the target" test -z "$(ls -A "$M")"
    umount "$M"
fi

# ---- item 10: a write cut short names why ----
# Under a file-size limit (SIGXFSZ ignored) a write that crosses it is short and the next
# fails with EFBIG, as a filling disk's short write is followed by ENOSPC: the line must
# name that cause, not EIO (iozone said "Input/output error" in bench/safety.sh's soak).
xfsz_run() { (trap '' XFSZ; ulimit -f 30000; exec "$SB" run "$@" -n 1 --exact-runs -t "$T/target" \
    --result keep --results-dir "$R" -i short); }
check_exit "iozone, a short write: exit 1" 1 xfsz_run iozone -o record-size=1m -o file-size=64m
check_one_line "iozone, a short write: one line naming the cause (EFBIG)" "File too large"
check_exit "dd, a short write: exit 1" 1 xfsz_run dd -o bs=1m -o count=64
check_one_line "dd, a short write: one line naming the cause (EFBIG)" "File too large"
# io on a file that exists (its preallocation would already fail past the limit).
"$SB" io --filename="$T/target/short.io" --rw=write --bs=1m --size=64m >/dev/null 2>&1
check_exit "io, a short write: exit 1" 1 \
    bash -c 'trap "" XFSZ; ulimit -f 30000; exec "$0" io --filename="$1" --rw=write --bs=1m --size=64m' "$SB" "$T/target/short.io"
check_one_line "io, a short write: one line naming the cause (EFBIG)" "File too large"
rm -f "$T/target/short.io"
check "short writes: the result file is unchanged" test "$(md5sum <"$R/keep.json")" = "$sum"

# ---- item 11: option values refused at once ----
for v in 0 -1 40000 1e3 ''; do
    check_exit "sqlite count=$v: exit 2" 2 "$SB" run sqlite -o "count=$v" -t "$T/target" --result keep --results-dir "$R"
    check_one_line "sqlite count=$v: one line naming count" "count="
done
check "sqlite count: nothing was built" test -z "$(ls -A "$T/target")"

# ---- item 11: a dd wiki page cut short ----
# Cut inside its last heading, or right after it: the cut machine must not be dropped
# without a word while the others import. Refused (exit 1, as any damaged page), one line
# naming the line; nothing imported.
P004=$SEEDS/004_b63bb00861e0ff85.txt
hl=$(grep -n '^==== Raspberry Pi CM4' "$P004" | cut -d: -f1)
head -n $((hl - 1)) "$P004" >"$T/cut-inside.txt"
printf "==== Raspberry Pi CM" >>"$T/cut-inside.txt"
head -n "$hl" "$P004" >"$T/cut-after.txt"
for c in inside after; do
    check_exit "dd wiki page cut ($c the heading): refused" 1 "$SB" import "$T/cut-$c.txt" --result "cut-$c" --results-dir "$R"
    check_one_line "dd wiki page cut ($c the heading): one line naming the line" "line $hl:"
    check "dd wiki page cut ($c the heading): nothing imported" test ! -e "$R/cut-$c.json"
done
check_exit "the whole dd wiki page still imports" 0 "$SB" import "$P004" --result whole --results-dir "$R"

# ---- item 11: a scenario file that is not UTF-8 ----
# Its section names are identifiers and its titles text of the result file (UTF-8 only):
# refused at once, naming the line, before anything is built (it used to build, measure,
# then fail to save).
export STORBENCH_STATE_DIR="$T/state"
mkdir -p "$T/img"
printf '[scenario]\ntitle = Caf\xe9 on disk\n\n[ext4]\nfilesystem = ext4\n' >"$T/title.ini"
printf '[scenario]\ntitle = fine\n\n[caf\xe9]\nfilesystem = ext4\n' >"$T/section.ini"
for f in title:2 section:4; do
    ini=$T/${f%:*}.ini line=${f#*:}
    check_exit "scenario check, ${f%:*} not UTF-8: exit 2" 2 "$SB" scenario check "$ini"
    check_one_line "scenario check, ${f%:*} not UTF-8: one line naming the line" "$ini:$line: .*not UTF-8"
    check_exit "scenario check --vm, ${f%:*} not UTF-8: exit 2" 2 "$SB" scenario check --vm "$ini"
    check_exit "scenario run, ${f%:*} not UTF-8: exit 2" 2 "$SB" scenario run "$ini" --suite dd \
        -o count=4 -o bs=1M -n 1 --exact-runs --result "$T/scn.json" --images "$T/img" --image-size 64M
    check_one_line "scenario run, ${f%:*} not UTF-8: one line naming the line" "$ini:$line: .*not UTF-8"
    check "scenario run, ${f%:*} not UTF-8: nothing built, nothing saved" test -z "$(ls -A "$T/img")" -a ! -e "$T/scn.json"
done

# A result file whose directory cannot take the save is refused before anything is
# measured (bench/safety.sh found runs measuring first and failing at the save).
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$T/rodir" "$T/rotarget"
    if mount -t tmpfs -o size=1m,ro none "$T/rodir" 2>/dev/null; then
        check_exit "run into a read-only result directory: exit 1" 1 \
            "$SB" run dd --target "$T/rotarget" -o bs=64k -o count=4 --runs 1 --result "$T/rodir/r.json" --identifier a
        check_one_line "run into a read-only result directory: one line naming the cause" "Read-only file system"
        check "run into a read-only result directory: nothing measured" test ! -s "$T/out"
        umount "$T/rodir"
    else
        echo "# SKIP read-only result directory: cannot mount tmpfs"
    fi
else
    echo "# SKIP read-only result directory: needs root"
fi

finish
