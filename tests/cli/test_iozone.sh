#!/bin/bash
# CLI tests of the iozone test: it makes IOzone's system calls in IOzone's
# order (`iozone -e -i0 -i1`: a new file, write, rewrite, read, three fsyncs
# per pass, no preallocation, whole-record read(2)/write(2)), writes IOzone's
# buffer (the 0xA5 pattern word, then zeros), reads the file as the writes
# left it unless cache=cold (which the option line then shows), and refuses
# cache=cold on the write test with one line. Traced with strace (skipped
# where it cannot trace); never checks a timing.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }

D="$T/target"
mkdir -p "$D"
R="$T/r.json"
small=(-o file-size=64m -o record-size=1m)

check_exit "iozone cache=cold with test=write is refused" 2 "$SB" run iozone -t "$D" -r "$R" \
    -o test=write -o cache=cold
check_one_line "iozone cache=cold with test=write: one line" "cache=cold"

check_exit "iozone read, cold" 0 "$SB" run iozone -t "$D" -r "$R" -i cold -n 1 --exact-runs \
    "${small[@]}" -o test=read -o cache=cold
check "cold read: the option line says so" jqok '.results[] | select(.description ==
    "Record Size: 1MB - File Size: 64MB - Disk Test: Read Performance - Read Cache: Dropped")' "$R"

if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
    check_exit "iozone read, traced" 0 strace -f -s 16 -x -o "$T/st" \
        -e trace=creat,open,openat,fsync,fdatasync,fallocate,ftruncate,read,write,lseek,unlink \
        "$SB" run iozone -t "$D" -r "$R" -i warm -n 1 --exact-runs --no-drop-caches "${small[@]}" \
        -o test=read
    grep -E 'iozone\.tmp|sync\(|fallocate|ftruncate|, 1048576\)' "$T/st" | sed 's/^[0-9]* *//' >"$T/calls"
    # The sequence on the file, records collapsed: W = a 1 MiB write, R = a 1 MiB read.
    # (Up to the file's last unlink: the result file is saved after.)
    seq=$(awk '/^(fsync|unlink|open|creat)/ && w { printf "W%d ", w; w = 0 }
        /^(fsync|unlink|open|creat)/ && r { printf "R%d ", r; r = 0 }
        /^unlink/ { printf "U " } /^creat/ { printf "C " }
        /^openat.*O_RDWR/ { printf "O " } /^openat.*O_RDONLY/ { printf "o " }
        /^fsync/ { printf "S " } /^(fdatasync|fallocate|ftruncate)/ { printf "X " }
        /^write\(.*1048576\) = 1048576/ { w++ } /^read\(.*1048576\) = 1048576/ { r++ }' \
        <(awk '{ l[NR] = $0 } /^unlink.*iozone\.tmp/ { last = NR }
            END { for (i = 1; i <= last; i++) print l[i] }' "$T/calls"))
    check "write, rewrite, read as iozone -e -i0 -i1 (got: $seq)" test "$seq" = \
        "U C O S W64 S S O S W64 S S o S R65 S S U "
    check "every record carries iozone's buffer: the 0xA5 word, then zeros" test \
        "$(grep -c '^write(.*"\\xa5\\xa5\\xa5\\xa5\\xa5\\xa5\\xa5\\xa5\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00".*, 1048576)' "$T/calls")" -eq 128
    check "warm read: no cache dropped between rewrite and read" test \
        "$(grep -c 'drop_caches' "$T/st")" -eq 0
else
    ok "# skip: strace cannot trace here (system call sequence)"
fi
check "warm read: the option line is the seed's" jqok '.results[] | select(.description ==
    "Record Size: 1MB - File Size: 64MB - Disk Test: Read Performance")' "$R"
check "read test: write and rewrite figures are secondary" jqok '[.results[] | select(.description ==
    "Record Size: 1MB - File Size: 64MB - Disk Test: Read Performance") | .entries[0].secondary[].name] |
    index("write_bw") != null and index("rewrite_bw") != null and index("bw") != null' "$R"
check "the runs leave nothing behind" test "$(ls -A "$D" | wc -l)" -eq 0

finish
