#!/bin/bash
# CLI tests of fio's I/O logs in `storbench io` (src/io/log/iolog_write.c, iolog_replay.c,
# blktrace.c, blktrace_merge.c; src/io/loop/replay.c): write_iolog writes fio 3.33's
# version 3 log line for line (the times aside); read_iolog replays version 2 and 3 logs
# and blktrace traces with the replay options; a malformed log is refused with FILE:LINE;
# and the round trip with fio itself, counted: a log fio wrote replays in storbench, and
# one storbench wrote replays in fio, with the same read and write counts (total_ios of
# both JSON outputs). Without fio or jq the fio comparisons skip, visibly. Runs in a
# scratch directory: the logs are named relative to it, as users name them.
. "$(dirname "$0")/lib.sh"
GEN="python3 $SRC/tests/cli/blktrace_gen.py"
cd "$T" || exit 1
have_fio=0
command -v fio >/dev/null && command -v jq >/dev/null && have_fio=1
have_py=0
command -v python3 >/dev/null && have_py=1
# counts FILE.json: "reads writes trims" of the first job
counts() { jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios) \(.trim.total_ios)"' "$1"; }
# the log's lines without their times (version 3's first word)
untimed() { sed 1d "$1" | cut -d' ' -f2-; }

# ---- write_iolog: fio's version 3 log ----
check_exit "write_iolog runs" 0 "$SB" io --name=w --filename=f --size=64k --bs=4k --rw=write --fsync=4 \
    --write_iolog=w.log
check "write_iolog: fio's version 3 header" [ "$(head -1 w.log)" = "fio version 3 iolog" ]
check "write_iolog: add, open, 16 writes, the sync after the 4th at its offset, close" \
    [ "$(untimed w.log | sed -n '1p;2p;$p' | tr '\n' ,)" = "f add,f open,f close," -a \
      "$(grep -c ' f write ' w.log)" = 16 -a "$(grep -c ' f sync 12288 0$' w.log)" = 1 ]
check "write_iolog: every time a number of microseconds, never going back" \
    awk 'NR > 1 { if ($1 !~ /^[0-9]+$/ || $1 < last) exit 1; last = $1 }' w.log
check_exit "write_iolog appends, as fio's" 0 "$SB" io --name=w --filename=f --size=16k --bs=4k --rw=read \
    --write_iolog=w.log
check "write_iolog: the second run's log after the first" [ "$(grep -c '^fio version 3 iolog$' w.log)" = 2 ]
if [ $have_fio = 1 ]; then
    # fsync=5: 16 writes end without a sync due (fio's fsync=N skips the one after a job's
    # last write, storbench's does it: that difference is the loop's, not the log's)
    fio --name=w --filename=g --size=64k --bs=4k --rw=write --fsync=5 --write_iolog=fw.log >/dev/null 2>&1
    "$SB" io --name=w --filename=g --size=64k --bs=4k --rw=write --fsync=5 --write_iolog=sw.log >/dev/null 2>&1
    check "write_iolog: the same lines as fio 3.33's, times aside" diff <(untimed fw.log) <(untimed sw.log)
    check "write_iolog: the same header as fio's" [ "$(head -1 fw.log)" = "$(head -1 sw.log)" ]
else
    echo "ok # SKIP fio or jq missing: write_iolog not compared with fio's"
fi

# ---- the round trip with fio, counted ----
if [ $have_fio = 1 ]; then
    fio --name=r --filename=h --size=256k --bs=4k --rw=randrw --write_iolog=fio.log --output-format=json \
        >fio-rec.json 2>/dev/null
    check_exit "fio's log replays in storbench" 0 "$SB" io --name=p --read_iolog=fio.log --output-format=json
    cp "$T/out" sb-play.json
    check "fio's log: storbench replays fio's read and write counts ($(counts fio-rec.json))" \
        [ "$(counts fio-rec.json)" = "$(counts sb-play.json)" -a "$(counts sb-play.json | cut -d' ' -f1)" -gt 0 ]
    "$SB" io --name=r --filename=k --size=256k --bs=4k --rw=randrw --write_iolog=sb.log --output-format=json \
        >sb-rec.json 2>/dev/null
    fio --name=p --read_iolog=sb.log --output-format=json >fio-play.json 2>/dev/null
    check "storbench's log: fio replays its read and write counts ($(counts sb-rec.json))" \
        [ "$(counts sb-rec.json)" = "$(counts fio-play.json)" -a "$(jq '.jobs[0].error' fio-play.json)" = 0 ]
else
    echo "ok # SKIP fio or jq missing: the round trip with fio is not measured"
fi

# ---- read_iolog: version 2, the replay options ----
truncate -s 1m d
printf 'fio version 2 iolog\nd add\nd open\nd read 0 4096\nd write 65536 8192\nd read 131072 4096\nd sync 0 0\nd trim 8192 4096\nd close\n' >v2.log
check_exit "a log's trim of an existing file is refused without its consent" 2 "$SB" io --name=p --read_iolog=v2.log
check_one_line "the refusal names --destroy-data-on" destroy-data-on
check_exit "--readonly replays the reads alone, as fio's read-only mode" 0 "$SB" io --readonly --name=p \
    --read_iolog=v2.log --output-format=json
check "--readonly: two reads, no write, no trim" [ "$(counts out)" = "2 0 0" ]
check_exit "a version 2 log replays" 0 "$SB" io --name=p --read_iolog=v2.log --destroy-data-on d \
    --write_iolog=p.log --output-format=json
check "version 2: two reads, a write, a trim, as logged" [ "$(counts out)" = "2 1 1" ]
check "version 2: offsets, sizes and the sync as logged" \
    [ "$(untimed p.log | sed '1,2d;$d' | tr '\n' ,)" = "d read 0 4096,d write 65536 8192,d read 131072 4096,d sync 131072 0,d trim 8192 4096," ]
rm -f p.log
check_exit "replay_skip=write,trim" 0 "$SB" io --name=p --read_iolog=v2.log --replay_skip=write,trim --output-format=json
check "replay_skip: only the reads" [ "$(counts out)" = "2 0 0" ]
check_exit "replay_scale=2, replay_align=64k" 0 "$SB" io --name=p --read_iolog=v2.log --replay_scale=2 \
    --replay_align=64k --replay_skip=trim --write_iolog=p.log
check "replay_scale and replay_align: offsets halved, then down to 64 KiB" \
    [ "$(untimed p.log | grep -E 'read|write' | cut -d' ' -f3 | tr '\n' ,)" = "0,0,65536," ]
rm -f p.log
truncate -s 1m other
check_exit "replay_redirect" 0 "$SB" io --name=p --read_iolog=v2.log --replay_redirect=other --destroy-data-on other \
    --write_iolog=p.log
check "replay_redirect: every I/O to the other file" \
    [ "$(untimed p.log | cut -d' ' -f1 | sort -u)" = "other" ]
rm -f p.log
printf 'fio version 2 iolog\nd read 2097152 4096\n' >past.log
check_exit "a read past the file's end fails the job, as fio's (exit 1)" 1 "$SB" io --name=p --read_iolog=past.log
check "the failure names the offset" grep -q 2097152 "$T/err"

# ---- version 3: pacing by the log's times ----
printf 'fio version 3 iolog\n0 d add\n0 d open\n10 d read 0 4096\n1500010 d read 4096 4096\n1500020 d close\n' >v3.log
check_exit "a version 3 log replays" 0 "$SB" io --name=p --read_iolog=v3.log --write_iolog=p.log
gap() { awk '$3 == "read" { t[n++] = $1 } END { print t[1] - t[0] }' "$1"; }
check "version 3: the second read 1.5 s after the first, as logged" [ "$(gap p.log)" -ge 1500000 ]
rm -f p.log
"$SB" io --name=p --read_iolog=v3.log --replay_time_scale=400 --write_iolog=p.log >/dev/null 2>&1
check "replay_time_scale=400: the gap a quarter (at least 375 ms, not 1.5 s)" \
    [ "$(gap p.log)" -ge 375000 -a "$(gap p.log)" -lt 1500000 ]
rm -f p.log
"$SB" io --name=p --read_iolog=v3.log --replay_no_stall=1 --write_iolog=p.log >/dev/null 2>&1
check "replay_no_stall: no wait for the log's times" [ "$(gap p.log)" -lt 1500000 ]
rm -f p.log
printf 'fio version 2 iolog\nd read 0 4096\nd wait 700 0\nd read 4096 4096\n' >wait.log
"$SB" io --name=p --read_iolog=wait.log --write_iolog=p.log >/dev/null 2>&1
check "version 2's wait: the next read 700 ms after the start, as fio's (ms)" [ "$(gap p.log)" -ge 600000 ]
rm -f p.log
"$SB" io --name=p --read_iolog=wait.log --replay_no_stall=1 --write_iolog=p.log >/dev/null 2>&1
check "replay_no_stall: no wait for a wait either" [ "$(gap p.log)" -lt 600000 ]
rm -f p.log
printf 'fio version 3 iolog\n0 d read 0 4096\n1500000 d read 4096 4096\n3000000 d read 8192 4096\n' >eta.log
"$SB" io --name=p --read_iolog=eta.log --eta=always --output-format=json 2>eta.err >/dev/null
check "--eta: a replay's progress is its log's bytes (a third or two thirds done)" \
    grep -qE '\[(33\.3|66\.7)%\]' <(tr '\r' '\n' <eta.err)
printf 'fio version 3 iolog\n0 d read 0 4096\n60000000 d read 4096 4096\n' >gap.log
check_exit "runtime ends a replay waiting for its log's next time (a minute away)" 0 timeout 30 "$SB" io \
    --name=p --read_iolog=gap.log --runtime=1 --output-format=json
check "runtime: the one read before the wait" [ "$(counts out)" = "1 0 0" ]

# ---- a log through a pipe (fio's read_iolog=-): read once, as it comes ----
check_exit "read_iolog=- reads standard input" 0 "$SB" io --name=p --read_iolog=- --read_iolog_chunked=1 --bs=8k \
    --replay_redirect=d --destroy-data-on d --output-format=json <v2.log
check "read_iolog=-: the log's reads, write and trim" [ "$(counts out)" = "2 1 1" ]
check_exit "read_iolog=- without read_iolog_chunked=1 is refused" 2 "$SB" io --name=p --read_iolog=- <v2.log
check_one_line "the refusal names read_iolog_chunked" read_iolog_chunked

# ---- a malformed log: FILE:LINE and the cause, exit 2 ----
bad() { # NAME CONTENT WORD
    printf "$2" >bad.log
    check_exit "refused: $1" 2 "$SB" io --name=p --read_iolog=bad.log
    check_one_line "refused: $1 names bad.log:LINE" "$3"
}
bad "an unknown action" 'fio version 2 iolog\nd add\nd jump 0 4096\n' "bad.log:3"
bad "a missing length" 'fio version 2 iolog\nd read 0\n' "bad.log:2"
bad "a length that is no number" 'fio version 2 iolog\nd read 0 4k\n' "bad.log:2"
bad "an offset beyond 2^63" 'fio version 2 iolog\nd read 99999999999999999999 4096\n' "bad.log:2"
bad "a zero-byte read" 'fio version 2 iolog\nd read 0 0\n' "bad.log:2"
bad "a version 3 line without its time" 'fio version 3 iolog\nd read 0 4096\n' "bad.log:2"
bad "a wait in a version 3 log" 'fio version 3 iolog\n5 d wait 0 0\n' "bad.log:2"
bad "no version line" 'd read 0 4096\n' "bad.log:1"
bad "a NUL byte" 'fio version 2 iolog\nd read 0\0 4096\n' "bad.log:2: a NUL"
bad "a second file without replay_redirect" 'fio version 2 iolog\nd read 0 4096\ne read 0 4096\n' "bad.log:3"
head -c 5000 /dev/zero | tr '\0' a >long
{ echo "fio version 2 iolog"; cat long; echo; } >bad.log
check_exit "refused: a line longer than 4096 bytes" 2 "$SB" io --name=p --read_iolog=bad.log
check_one_line "refused: the long line named" "bad.log:2: line longer"
# read_iolog_chunked=0 checks the whole log before any I/O; =1 replays up to the bad line
printf 'fio version 2 iolog\nd read 0 4096\nd read 4096 4096\nd jump\n' >bad.log
check_exit "a bad last line refuses the job before any I/O" 2 "$SB" io --name=p --read_iolog=bad.log --write_iolog=c0.log
check "read_iolog_chunked=0: no I/O was issued (no log written)" [ ! -e c0.log ]
check_exit "read_iolog_chunked=1: the bad line stops the job where it is" 2 "$SB" io --name=p \
    --read_iolog=bad.log --read_iolog_chunked=1 --destroy-data-on d --write_iolog=c1.log
check "read_iolog_chunked=1: the two reads before it were replayed" [ "$(grep -c ' read ' c1.log)" = 2 ]
check_exit "read_iolog_chunked=1 with replay_redirect: the same" 2 "$SB" io --name=p --read_iolog=bad.log \
    --read_iolog_chunked=1 --replay_redirect=other --destroy-data-on other --write_iolog=c2.log
check "read_iolog_chunked=1 with replay_redirect: the two reads replayed" [ "$(grep -c ' read ' c2.log)" = 2 ]

# ---- blktrace binary traces ----
if [ $have_py = 1 ]; then
    $GEN t_le.bin '<' 1000 rwt
    $GEN t_be.bin '>' 1000 rwt
    check_exit "a blktrace replays" 0 "$SB" io --name=b --read_iolog=t_le.bin --replay_redirect=d --destroy-data-on d --output-format=json
    check "blktrace: its queue events, two reads, writes and trims (completions and notes passed over)" \
        [ "$(counts out)" = "2 2 2" ]
    check_exit "a blktrace of the other byte order replays" 0 "$SB" io --name=b --read_iolog=t_be.bin \
        --replay_redirect=d --destroy-data-on d --write_iolog=b.log
    check "blktrace: sectors as bytes, sizes as recorded" \
        [ "$(untimed b.log | sed -n 3,5p | tr '\n' ,)" = "d read 0 4096,d write 4096 4096,d trim 8192 4096," ]
    $GEN t_dev.bin '<' 1000 r $(( (4095 << 20) | 4095 ))
    check_exit "blktrace: a device this machine lacks is refused" 2 "$SB" io --name=b --read_iolog=t_dev.bin
    check_one_line "blktrace: the refusal names replay_redirect" replay_redirect
    $GEN slow.bin '<' 1000000000 rw
    "$SB" io --name=b --read_iolog=slow.bin --replay_redirect=d --write_iolog=s.log >/dev/null 2>&1
    check "blktrace: paced by its times (1 s between I/Os)" [ "$(gap s.log)" -ge 1000000 ]
    check_exit "merge_blktrace_file with merge_blktrace_iters=2:1" 0 "$SB" io --name=m \
        --read_iolog=t_le.bin:t_be.bin --merge_blktrace_file=m.bin --merge_blktrace_iters=2:1 \
        --replay_redirect=d --destroy-data-on d --output-format=json
    check "merge: the first trace twice, the second once (3 x 6 I/Os)" [ "$(counts out)" = "6 6 6" ]
    check "merge: the merged trace is 18 records of 48 bytes" [ "$(stat -c %s m.bin)" = 864 ]
    rm -f m.bin
    # scalars 50:100: the first trace's times halved (0, 0.5 ... 2.5 ms), the second's kept
    check_exit "merge_blktrace_scalars=50:100" 0 "$SB" io --name=m --read_iolog=t_le.bin:t_be.bin \
        --merge_blktrace_file=m.bin --merge_blktrace_scalars=50:100 --replay_redirect=d --destroy-data-on d \
        --replay_no_stall=1
    times=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(); print(",".join(str(struct.unpack_from("<Q",b,i+8)[0]) for i in range(0,len(b),48)))' m.bin)
    check "merge: the merged times in order, the first trace's halved ($times)" \
        [ "$times" = "0,0,500,1000,1000,1500,2000,2000,2500,3000,4000,5000" ]
    rm -f m.bin
    check_exit "merge_blktrace_file naming one of the traces is refused" 2 "$SB" io --name=m \
        --read_iolog=t_le.bin:t_be.bin --merge_blktrace_file=./t_be.bin --replay_redirect=d
    check_one_line "merge: the refusal names merge_blktrace_file" merge_blktrace_file
    check "merge: the trace left whole" [ "$(stat -c %s t_be.bin)" = "$(stat -c %s t_le.bin)" ]
    check_exit "merge_blktrace_scalars with a value per trace only" 2 "$SB" io --name=m \
        --read_iolog=t_le.bin:t_be.bin --merge_blktrace_file=m.bin --merge_blktrace_scalars=50 --replay_redirect=d
    check_one_line "merge: the refusal names merge_blktrace_scalars" merge_blktrace_scalars
    head -c 70 t_le.bin >cut.bin
    check_exit "a trace cut short is refused" 2 "$SB" io --name=b --read_iolog=cut.bin --replay_redirect=d
    check_one_line "the cut trace named with its record" "cut.bin: record 2"
    if [ $have_fio = 1 ]; then
        $GEN t_rw.bin '<' 1000 rw
        fio --name=b --read_iolog=t_rw.bin --replay_redirect=d --output-format=json >fio-bt.json 2>/dev/null
        "$SB" io --name=b --read_iolog=t_rw.bin --replay_redirect=d --output-format=json >sb-bt.json 2>/dev/null
        check "blktrace: storbench replays fio's counts of the same trace ($(counts fio-bt.json))" \
            [ "$(counts fio-bt.json)" = "$(counts sb-bt.json)" ]
    else
        echo "ok # SKIP fio or jq missing: the blktrace replay not compared with fio's"
    fi
else
    echo "ok # SKIP python3 missing: no blktrace to replay"
fi
# ---- fuzz smoke: the reader on mutated logs (a few seconds; `make fuzz` runs libFuzzer) ----
B=$(dirname "$SB_BIN")/fuzz
if [ $have_py = 1 ] && [ -x "$B/replay_iolog" ] && [ -x "$B/replay_blktrace" ]; then
    mkdir -p mut
    python3 - "$SRC/tests/data/iolog" mut <<'PY'
import os, random, sys
src, out = sys.argv[1], sys.argv[2]
rng = random.Random(1)
seeds = [open(os.path.join(src, n), 'rb').read() for n in sorted(os.listdir(src))]
for i in range(3000):
    b = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 8)):
        op, at = rng.randrange(4), rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[at % len(b)] = rng.randrange(256)
        elif op == 1:
            b[at:at] = bytes(rng.choice([b'9' * 25, b' ', b'\n', b'read', b'\0', b'\xff' * 8]))
        elif op == 2:
            del b[at:at + rng.randint(1, 16)]
        else:
            b[at:at] = b[rng.randrange(len(b) + 1):][:rng.randint(1, 64)]
    open(os.path.join(out, '%04d' % i), 'wb').write(bytes([rng.randrange(256)]) + bytes(b))
PY
    check_exit "fuzz smoke: 3000 mutated logs through the iolog reader" 0 "$B/replay_iolog" mut
    check_exit "fuzz smoke: the same through the blktrace reader" 0 "$B/replay_blktrace" mut
else
    echo "ok # SKIP python3 or build/fuzz/replay_iolog missing: no fuzz smoke"
fi
finish
