#!/bin/bash
# CLI tests of fio's I/O-pattern options (src/io/loop/offsets.c's sb_seqmix, loop.c,
# varsize.c, options/parse_fio.c, parse_zbd.c), each against fio 3.33 on the same job where
# fio has it, by the offsets the I/Os went to (write_lat_log with log_offset, in issue order
# on psync): rw=randread:8 takes a new random block every 8 I/Os, the 7 between sequential
# (rw_sequencer=sequential) or the same block (identical), with sizes drawn in bytes (a
# sequential one that does not fit before the end ends the pass, and a time-based job goes
# on at 0 past the end, as fio's); percentage_random mixes random
# and sequential I/Os in its ratio (0: fio's exact sequential offsets); size=A:B:... keeps
# the last value, as fio's parser does; blockalign takes any unit and draws offsets
# independently (fio turns its random map off); bs, bsrange and ba take READ,WRITE values
# (a job of one direction uses its own, as fio's), bs_is_seq_rand makes them SEQ,RAND and
# bs_unaligned lets a range's sizes be any byte count; offset=N% starts at that share of
# the file, rounded up to offset_align (fio's exact offsets). Without fio the comparisons skip,
# visibly.
. "$(dirname "$0")/lib.sh"

fio_scratch 1048576
mkdir -p sb fio

# latlog TOOL ARGS...: job q with ARGS run by TOOL (sb: storbench, or fio) in TOOL/, which
# leaves its lat log with each I/O's offset in TOOL/q_lat.1.log
latlog() {
    local tool=$1; shift
    rm -f "$tool"/q_*.log
    if [ "$tool" = sb ]; then
        (cd sb && "$SB" io --name=q --write_lat_log=q --log_offset=1 "$@" >/dev/null 2>"$T/err")
    else
        (cd fio && fio --name=q --write_lat_log=q --log_offset=1 "$@" >/dev/null 2>&1)
    fi
}
# offs TOOL ARGS...: the block of each I/O of a 1 MiB job on $F, one line each
offs() {
    local tool=$1; shift
    latlog "$tool" --filename="$F" --size=1m "$@"
    awk -F', ' '{print $5 / 4096}' "$tool"/q_lat.1.log
}
# groups N: every run of N I/Os starts anywhere and goes on block by block (seq; past the
# region's last block 255 a random one, as fio's) or stays
groups() { awk -v n="$1" -v mode="$2" 'NR % n != 1 { want = mode == "seq" ? p + 1 : p; if ($1 != want && want < 256) bad++ }
                                  { p = $1 } END { exit !(NR == 256 && !bad) }'; }
# the % of I/Os at the block after the last one
seqpct() { awk 'NR > 1 && $1 == p + 1 { s++ } { p = $1 } END { printf "%d", 100 * s / NR }'; }

# ---- rw=randread:8 with rw_sequencer ----
offs sb --rw=randread:8 --norandommap >a
check "randread:8: 256 I/Os, a random block then 7 after it, in each group of 8" groups 8 seq <a
offs sb --rw=randread:8 >a
check "randread:8 with the random map: the same groups" groups 8 seq <a
offs sb --rw=randread:8 --rw_sequencer=identical >a
check "randread:8 rw_sequencer=identical: each group of 8 on one block" groups 8 same <a
check "randread:8: the groups' blocks are random, not 0, 8, 16..." test "$(sed -n '9p;17p' a | tr '\n' ' ')" != "1 2 "
if [ $have_fio = 1 ]; then
    offs fio --rw=randread:8 --norandommap >b
    check "randread:8: fio's groups are the same" groups 8 seq <b
    offs fio --rw=randread:8 --rw_sequencer=identical >b
    check "rw_sequencer=identical: fio's groups are the same" groups 8 same <b
fi

# ---- randread:N with sizes drawn (bsrange, bssplit): byte positions, as fio's get_next_block ----
# vgroups N TOOL MIN MAX: in each group of N I/Os (of a 1 MiB job) the first anywhere, the
# others at the end of the one before (at the region's very end a random one), sizes MIN..MAX,
# none past the end; and the job ends with its 1 MiB done or where a sequential I/O would not
# fit (less than MIN left before the end: fio's fill_io_u fails and the file is done)
vgroups() { awk -F', ' -v n="$1" -v lo="$3" -v hi="$4" -v size=1048576 '
    (NR - 1) % n != 0 && p < size && $5 != p { bad++ }
    $4 < lo || $4 > hi || $5 + $4 > size { bad++ }
    { p = $5 + $4; bytes += $4 }
    END { cut = NR % n != 0 && p < size && p + lo > size
          exit !(NR > 8 && !bad && (bytes >= size || cut)) }' "$2"/q_lat.1.log; }
latlog sb --filename="$F" --size=1m --rw=randread:8 --bsrange=512-4k --bs_unaligned --norandommap
check "randread:8 bsrange=512-4k bs_unaligned: groups of 8 in bytes, each after the last" vgroups 8 sb 512 4096
latlog sb --filename="$F" --size=1m --rw=randread:8 --bssplit=4k/50:16k/50
check "randread:8 bssplit with the random map: the same" vgroups 8 sb 4096 16384
latlog sb --filename="$F" --size=1m --rw=randread:4 --bsrange=1k-4k --rw_sequencer=identical
check "randread:4 bsrange rw_sequencer=identical: each group of 4 at one offset" \
    test -z "$(awk -F', ' '(NR - 1) % 4 != 0 && $5 != p { print } { p = $5 }' sb/q_lat.1.log)"
if [ $have_fio = 1 ]; then
    latlog fio --filename="$F" --size=1m --rw=randread:8 --bsrange=512-4k --bs_unaligned --norandommap
    check "randread:8 bsrange: fio's groups are the same" vgroups 8 fio 512 4096
fi
# 8 KiB of 3k reads (bssplit's 5k rounds down to 3k: fio's get_next_buflen without
# bs_unaligned): a random one at 0 or 3k, then the next at 3k or 6k, where none fits: the
# job ends there after 1 or 2 I/Os, short of its 8 KiB (it used to go on to 9k)
cutn() {
    latlog "$@" --filename="$F" --size=8k --rw=randread:4 --bssplit=3k/50:5k/50 --norandommap
    awk -F', ' '{ n++; b += $4 } END { print n, b }' "$1"/q_lat.1.log
}
read -r vn vb < <(cutn sb)
check "randread:4 on 8k of 3k reads: ends where the next does not fit ($vn I/Os, $vb bytes)" \
    eval '[ "$vn $vb" = "1 3072" ] || [ "$vn $vb" = "2 6144" ]'
if [ $have_fio = 1 ]; then
    read -r fn fb < <(cutn fio)
    check "... as fio's ($fn I/Os, $fb bytes)" eval '[ "$fn $fb" = "1 3072" ] || [ "$fn $fb" = "2 6144" ]'
fi
# time_based with one file: a run that reaches the region's end goes on at block 0 (fio's
# get_next_seq_offset rewinds there), not at a random block
wrap0() { # TOOL: "RUNS-PAST-THE-END NOT-TO-0"
    latlog "$1" --filename="$F" --size=1m --rw=randread:8 --norandommap --time_based --runtime=1 \
        --rate_iops=4000
    awk -F', ' '{ b = $5 / 4096 } (NR - 1) % 8 != 0 && p == 255 { n++; if (b != 0) bad++ } { p = b }
                END { print n + 0, bad + 0 }' "$1"/q_lat.1.log
}
read -r vn vbad < <(wrap0 sb)
check "randread:8 time_based: after block 255 block 0 ($vn runs past the end, $vbad elsewhere)" \
    eval '[ "$vn" -gt 0 ] && [ "$vbad" = 0 ]'
if [ $have_fio = 1 ]; then
    read -r vn vbad < <(wrap0 fio)
    check "... as fio's ($vn runs past the end, $vbad elsewhere)" eval '[ "$vn" -gt 0 ] && [ "$vbad" = 0 ]'
fi

# ---- the random map with sizes drawn (loop/varmap.c), as fio's ----
# cover TOOL ARGS: "IOS BYTES OVERLAPS" of a 1 MiB randread of 4k..64k: with the map each
# block is read once in a pass (a drawn block already read moves to the next free one, an
# I/O is cut short at one already read), so the I/Os tile the region
cover() {
    local tool=$1; shift
    latlog "$tool" --filename="$F" --size=1m --rw=randread --bsrange=4k-64k "$@"
    awk -F', ' '{ print $5, $4 }' "$tool"/q_lat.1.log | sort -n |
        awk '{ n++; b += $2; if ($1 < e) ov++; if ($1 + $2 > e) e = $1 + $2 } END { print n, b, ov + 0 }'
}
read -r vn vb vov < <(cover sb)
check "bsrange=4k-64k with the random map: 1 MiB read once, no overlap ($vn I/Os, $vb bytes, $vov overlaps)" \
    test "$vb $vov" = "1048576 0"
read -r n2 b2 ov2 < <(cover sb --norandommap)
check "... with norandommap the draws overlap ($ov2 overlaps in $n2 I/Os)" test "$ov2" -gt 0
if [ $have_fio = 1 ]; then
    read -r fn fb fov < <(cover fio)
    check "... fio's tile it too ($fn I/Os, $fb bytes, $fov overlaps), in a count near ours ($vn)" \
        eval '[ "$fb $fov" = "1048576 0" ] && [ $((4 * vn)) -ge $((3 * fn)) ] && [ $((4 * fn)) -ge $((3 * vn)) ]'
fi

# ---- percentage_random ----
offs sb --rw=randread --percentage_random=0 >a
check "percentage_random=0: the blocks in order, 0 to 255" test "$(tr '\n' ' ' <a)" = "$(seq 0 255 | tr '\n' ' ')"
if [ $have_fio = 1 ]; then
    offs fio --rw=randread --percentage_random=0 >b
    check "percentage_random=0: fio's offsets exactly" cmp -s a b
fi
offs sb --rw=randread --percentage_random=50 --norandommap >a
p50=$(seqpct <a)
offs sb --rw=randread --norandommap >a
p100=$(seqpct <a)
check "percentage_random=50: about half the I/Os sequential ($p50%), none without it ($p100%)" \
    eval '[ "$p50" -ge 35 ] && [ "$p50" -le 65 ] && [ "$p100" -le 5 ]'
if [ $have_fio = 1 ]; then
    offs fio --rw=randread --percentage_random=50 --norandommap >b
    f50=$(seqpct <b)
    check "percentage_random=50: near fio's share ($p50% vs $f50%)" \
        eval '[ $((p50 - f50)) -le 15 ] && [ $((f50 - p50)) -le 15 ]'
fi
# percentage_random=R,W: each direction's own, with a position per direction (fio's last_pos)
pdirs() {
    offs "$@" >/dev/null
    awk -F', ' '{ print $3, $5 / 4096 }' "$1"/q_lat.1.log
}
# the writes at blocks 0, 1, 2, ... in order; the reads mostly not after the last read
wseq() { awk '$1 == 1 { if ($2 != n) bad++; n++ } $1 == 0 { if ($2 == r + 1) s++; r = $2; nr++ }
              END { exit !(n > 50 && nr > 50 && !bad && s < nr / 10) }'; }
pdirs sb --rw=randrw --percentage_random=100,0 --norandommap >a
check "percentage_random=100,0: writes in order from block 0, reads random" wseq <a
pdirs sb --rw=randrw --percentage_random=100:0 --norandommap >a
check "percentage_random=100:0 (fio's ':' between directions): the same" wseq <a
if [ $have_fio = 1 ]; then
    pdirs fio --rw=randrw --percentage_random=100,0 --norandommap >b
    check "percentage_random=100,0: fio's writes in order, reads random, too" wseq <b
fi
check_exit "percentage_random=50,100 on a sequential read job: refused" 2 "$SB" io --filename="$F" --size=1m --rw=read --percentage_random=50,100
check_exit "percentage_random=100,0 on a random read job (the reads' 100): runs" 0 "$SB" io --filename="$F" --size=1m --rw=randread --percentage_random=100,0
check_exit "percentage_random=50,101: refused" 2 "$SB" io --filename="$F" --size=1m --rw=randrw --percentage_random=50,101
check_exit "percentage_random on a sequential job: refused" 2 "$SB" io --filename="$F" --size=1m --rw=read --percentage_random=50
check_exit "rw_sequencer=identical without randread:N: refused" 2 "$SB" io --filename="$F" --size=1m --rw=randread --rw_sequencer=identical
check_exit "randread:0: refused" 2 "$SB" io --filename="$F" --size=1m --rw=randread:0

# ---- size=A:B: the last one, as fio's parser ----
for v in 6400K:6400K:6400K:6400K 300K:6400K:100K; do
    "$SB" io --output-format=json --name=s --filename="$T/s" --size=$v --rw=write >sb.json 2>"$T/err"
    got=$(jq -r '.jobs[0].write.io_bytes' sb.json)
    want=$(( $(echo "${v##*:}" | tr -d K) * 1024 ))
    check "size=$v: $want bytes written ($got)" test "$got" = "$want"
    if [ $have_fio = 1 ]; then
        fio --output-format=json --name=s --filename="$T/s" --size=$v --rw=write >fio.json 2>/dev/null
        check "size=$v: as fio's" test "$(jq -r '.jobs[0].write.io_bytes' fio.json)" = "$got"
    fi
    rm -f "$T/s"
done
check_exit "size=1m:x: refused" 2 "$SB" io --filename="$F" --size=1m:x

# ---- blockalign: any unit, offsets drawn independently (fio turns its random map off) ----
# bal UNIT ARGS: "IOS DISTINCT MISALIGNED" of a 1 MiB randread at ba=UNIT
bal() {
    local tool=$1 u=$2; shift 2
    offs "$tool" --rw=randread --ba="$u" "$@" >/dev/null
    awk -F', ' -v u="$(numfmt --from=iec "$u")" '{ n++; if ($5 % u) bad++; if (!seen[$5]++) d++ }
        END { print n, d, bad + 0 }' "$tool"/q_lat.1.log
}
for u in 8K 1K 6K 512 1; do
    read -r n d bad < <(bal sb $u)
    check "ba=$u: 256 I/Os, each offset a multiple of it" test "$n $bad" = "256 0"
    if [ $have_fio = 1 ]; then
        read -r fn fd fbad < <(bal fio $u)
        check "ba=$u: as fio's, 256 I/Os at $d distinct offsets (fio $fd)" \
            eval '[ "$fn $fbad" = "256 0" ] && [ $((d - fd)) -le 20 ] && [ $((fd - d)) -le 20 ]'
    fi
done
check_exit "ba=6k on a sequential job: refused" 2 "$SB" io --filename="$F" --size=1m --rw=read --ba=6k
check_exit "ba=4k (bs) on a sequential job: accepted" 0 "$SB" io --filename="$F" --size=1m --rw=read --ba=4k

# ---- bs=READ,WRITE, bsrange=R,W, ba=R,W, bs_is_seq_rand, bs_unaligned ----
# sizes TOOL ARGS: "DDIR BS COUNT" lines of a 1 MiB job, and the misaligned offsets
sizes() {
    local tool=$1; shift
    offs "$tool" "$@" >/dev/null
    awk -F', ' '{ print $3, $4 }' "$tool"/q_lat.1.log | sort | uniq -c | awk '{ print $2, $3, $1 }'
}
sizes sb --rw=randrw --bs=4k,64k >a
check "bs=4k,64k randrw: reads of 4k, writes of 64k" test "$(cut -d' ' -f1,2 a | tr '\n' ' ')" = "0 4096 1 65536 "
check "bs=4k,64k: each direction's offsets in its own unit" \
    test -z "$(awk -F', ' '$5 % ($3 == 1 ? 65536 : 4096)' sb/q_lat.1.log)"
sizes sb --rw=randrw --bs=4k,64k --ba=4k,16k >/dev/null
check "ba=4k,16k: the writes' offsets multiples of 16k" test -z "$(awk -F', ' '$3 == 1 && $5 % 16384' sb/q_lat.1.log)"
check "ba=4k,16k: and not all of 64k" test -n "$(awk -F', ' '$3 == 1 && $5 % 65536' sb/q_lat.1.log)"
sizes sb --rw=randrw --bsrange=4k-8k,16k-32k >a
check "bsrange=4k-8k,16k-32k: each direction's sizes in its own range" \
    test -z "$(awk '($1 == 0 && ($2 < 4096 || $2 > 8192)) || ($1 == 1 && ($2 < 16384 || $2 > 32768))' a)"
# fio splits bs=R-W and R:W as R,W (no ',' left: at a ':' or else a '-'), the value before a
# ',' being its leading number: bs=4k-16k is reads of 4k and writes of 16k, not a range
for j in "--rw=write --bs=4k,64k" "--rw=read --bs=4k,64k" "--rw=write --bs=4k,16k --bs_is_seq_rand=1" \
         "--rw=read --bs=4k-16k" "--rw=write --bs=4k-16k" "--rw=write --bs=4k:16k" "--rw=write --bs=1k-4k,16k-64k"; do
    sizes sb $j >a
    if [ $have_fio = 1 ]; then
        sizes fio $j >b
        check "$j: fio's sizes and counts ($(tr '\n' ' ' <a))" cmp -s a b
    fi
done
sizes sb --rw=randrw --bs=4k-64k >a
check "bs=4k-64k randrw: reads of 4k, writes of 64k (no sizes between)" test "$(cut -d' ' -f1,2 a | tr '\n' ' ')" = "0 4096 1 65536 "
sizes sb --rw=randread --bsrange=4k:8k >a
check "bsrange=4k:8k: a range (fio's range type takes ':' too)" \
    test -z "$(awk '$2 < 4096 || $2 > 8192' a)" -a "$(wc -l <a)" -gt 1
sizes sb --rw=randwrite --bs=4k,16k --bs_is_seq_rand=1 >a
check "bs_is_seq_rand: a random job's writes take the second value, 16k" test "$(cut -d' ' -f1,2 a)" = "1 16384"
# a random job draws the offset first and then a size that fits after it, as fio's
# io_u_fits: on a 1 MiB region with sizes of 64k .. 1M, the sizes drawn are the smaller ones
# (uniform would average 544k) and no I/O goes past the end
fits() { # TOOL: "mean-size-below-400k none-past-the-end"
    offs "$1" --rw=randread --bsrange=64k-1m --norandommap >/dev/null
    awk -F', ' '{ n++; s += $4; if ($5 + $4 > 1048576) past++ } END { print (s / n < 409600), past + 0 }' "$1"/q_lat.1.log
}
check "bsrange=64k-1m on 1 MiB: sizes that fit after the offset ($(fits sb))" test "$(fits sb)" = "1 0"
if [ $have_fio = 1 ]; then
    check "... as fio's ($(fits fio))" test "$(fits fio)" = "1 0"
fi
sizes sb --rw=randread --bsrange=1k-4k --bs_unaligned >a
check "bs_unaligned: sizes from 1k to 4k, not all multiples of 1k" \
    eval 'test -z "$(awk '"'"'$2 < 1024 || $2 > 4096'"'"' a)" && test -n "$(awk '"'"'$2 % 1024'"'"' a)"'
sizes sb --rw=randread --bsrange=1k-4k >a
check "without bs_unaligned: multiples of 1k" test -z "$(awk '$2 % 1024' a)"
# fio draws 1k plus a count below 4k and caps it at 4k: a quarter of the sizes are 4k
at4k() { sizes "$1" --rw=randread --bsrange=1k-4k --bs_unaligned --norandommap |
    awk '{ n += $3 } $2 == 4096 { k = $3 } END { printf "%d", 100 * k / n }'; }
p4=$(at4k sb)
check "bs_unaligned bsrange=1k-4k: about a quarter of the sizes 4k ($p4 %)" test "$p4" -ge 15 -a "$p4" -le 35
if [ $have_fio = 1 ]; then
    f4=$(at4k fio)
    check "... as fio's ($f4 %)" test "$f4" -ge 15 -a "$f4" -le 35
fi
check_exit "bs= (no value, an unset \${VAR}): refused" 2 "$SB" io --filename="$F" --size=1m --bs=
check_exit "bs_unaligned without a range: refused" 2 "$SB" io --filename="$F" --size=1m --bs_unaligned
check_exit "bs=4k,8k,16k (a trim size of its own) on a trim job: refused" 2 "$SB" io --filename="$F" --size=1m --rw=randtrim --bs=4k,8k,16k
check_exit "bs=4k,8k,16k on a job that does not trim: runs" 0 "$SB" io --filename="$F" --size=1m --bs=4k,8k,16k
# verify with each direction's own size: blocks of their common unit (4k), each checked
rm -f "$F"
check_exit "bs=4k,64k with verify: runs clean" 0 "$SB" io --filename="$F" --size=1m --rw=randrw --bs=4k,64k \
    --verify=crc32c

# ---- offset=N% and offset_align: fio's first offsets exactly ----
head -c 10000000 /dev/zero >"$T/of"
# first TOOL ARGS...: the offset of the first I/O of a sequential 64 KiB job on $T/of
first() {
    local tool=$1; shift
    latlog "$tool" --filename="$T/of" --size=64k --rw=read "$@"
    head -1 "$tool"/q_lat.1.log | cut -d, -f5 | tr -d ' '
}
check "offset=50% of 10000000 bytes: 5001216 (rounded up to bs)" test "$(first sb --offset=50%)" = 5001216
check "offset=33% offset_align=64k: 3342336" test "$(first sb --offset=33% --offset_align=64k)" = 3342336
if [ $have_fio = 1 ]; then
    for a in "--offset=50%" "--offset=33% --offset_align=64k" "--offset=33%"; do
        check "$a: fio's first offset" test "$(first sb $a)" = "$(first fio $a)"
    done
fi
check_exit "offset_align without offset=N%: refused" 2 "$SB" io --filename="$F" --size=1m --offset_align=64k
check_exit "percentage_random=100,100,100: accepted" 0 "$SB" io --filename="$F" --size=1m --percentage_random=100,100,100
check_exit "percentage_random=50,20: each direction's own, runs" 0 "$SB" io --filename="$F" --size=1m --rw=randrw --percentage_random=50,20

# ---- rw=rw, sequential: each direction its own position, as fio's ----
# dirs TOOL: "R" or "W" and the block of each I/O, from the lat log (its 3rd field is the direction)
dirs() {
    local tool=$1; shift
    offs "$tool" --rw=rw --bs=4k "$@" >/dev/null
    awk -F', ' '{print ($3 == 0 ? "R" : "W"), $5 / 4096}' "$tool"/q_lat.1.log
}
dirs sb >"$T/rw.sb"
# every direction's blocks are 0, 1, 2, ... in turn (the one shared position gave reads and
# writes alternate blocks: neither started at 0 twice)
percnt() { awk -v d="$1" '$1 == d { if ($2 != n) bad++; n++ } END { print bad + 0 " " n + 0 }' "$T/rw.sb"; }
check "rw=rw: the reads' blocks go 0, 1, 2, ... ($(percnt R): wrong, reads)" test "$(percnt R | cut -d' ' -f1)" = 0
check "rw=rw: the writes' blocks too, from 0 ($(percnt W): wrong, writes)" test "$(percnt W | cut -d' ' -f1)" = 0
check "rw=rw: both directions ran, 256 I/Os in all" \
    test "$(percnt R | cut -d' ' -f2)" -gt 0 -a "$(percnt W | cut -d' ' -f2)" -gt 0 -a "$(wc -l <"$T/rw.sb")" = 256
if command -v fio >/dev/null; then
    dirs fio >"$T/rw.fio"
    check "rw=rw: fio's reads go 0, 1, 2, ... as well" \
        test "$(awk '$1 == "R" { if ($2 != n) bad++; n++ } END { print bad + 0 }' "$T/rw.fio")" = 0
fi

[ "$_failures" -eq 0 ]
