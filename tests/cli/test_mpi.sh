#!/bin/bash
# CLI tests of storbench under MPI (docs/mpi.md): 4 ranks on this machine
# (--oversubscribe; as root with --allow-run-as-root) for io write+read, a
# shared file, stonewalling and one failing rank (also one whose failure must be relayed
# by a rank waiting in a collective); the commands refused under
# mpirun; `run` of fs-mark and dd on 4 ranks (result file, system fields, combined
# figures) and a failing rank there; plain storbench without storbench-mpi. Sizes are tiny: these test
# behaviour, never speed. Skipped, visibly, where Open MPI is not installed.
. "$(dirname "$0")/lib.sh"

jqok() { jq -e "$@" >/dev/null 2>&1; }

MPI_BIN="$(dirname "$SB_BIN")/storbench-mpi"  # beside the binary under test ($SB is a wrapper in $T)
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    ok "mpi tests # SKIP no mpirun or no storbench-mpi (scripts/bootstrap installs Open MPI)"
    finish
fi
MPIRUN=(mpirun -q --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
run4() { "${MPIRUN[@]}" -np 4 "$@"; }

D="$T/target"
mkdir -p "$D"

# ---- io: write then read, a directory per rank ----
check_exit "4 ranks: io read (write+read phases)" 0 run4 "$SB" io --rw read --bs 64k --size 2m \
    --directory "$D" --output-format storbench-json
J="$T/rw.json"; cp "$T/out" "$J"
check "json: 4 ranks on 1 host" jqok '.ranks.ranks == 4 and .ranks.hosts == 1 and .ranks.max_ranks_per_host == 4' "$J"
check "json: write phase then read phase" jqok '[.ranks.phases[].rw] == ["write", "read"]' "$J"
check "json: every phase moved 4 x size" jqok 'all(.ranks.phases[]; .bytes == 4 * 2097152 and .ios == 128)' "$J"
check "json: aggregate bw = bytes / elapsed" \
    jqok 'all(.ranks.phases[]; (.bw_bytes_per_s - .bytes / .elapsed_s | fabs) <= 1e-6 * .bw_bytes_per_s)' "$J"
check "json: per-rank min <= mean <= max" \
    jqok 'all(.ranks.phases[]; .per_rank_bw_bytes_per_s | .min <= .mean and .mean <= .max and .min > 0)' "$J"
check "json: first done <= last done = elapsed" \
    jqok 'all(.ranks.phases[]; .first_done_s <= .last_done_s and .last_done_s == .elapsed_s)' "$J"
check "json: latency merged over all I/Os" jqok 'all(.ranks.phases[]; .lat_ns.samples == .ios)' "$J"
check "json: top level is the read phase of all ranks" \
    jqok '.read.bytes == 4 * 2097152 and .read.ios == 128 and .elapsed_s == .ranks.phases[1].elapsed_s' "$J"
check "every rank removed its directory" test -z "$(ls -A "$D")"

# IOR's interval on one host: from the earliest start on the clock the ranks share, so a
# rank that starts late (here rank 1 sleeps 3 s after the phase's barrier, as a
# descheduled rank would) counts from the others' start, not from its own (each rank's
# own interval, which the base took, is milliseconds for 256 KiB; 1.5 s of the 3 leaves
# room for rank 0's own set-up on a loaded machine)
check_exit "2 ranks, rank 1 late: io write" 0 env STORBENCH_TEST_RANK_DELAY=1:3000 \
    "${MPIRUN[@]}" -np 2 "$SB" io --rw write --bs 64k --size 256k --directory "$D" --output-format storbench-json
check "rank 1 late: the interval covers its start" \
    jqok '.ranks.phases[0].elapsed_s >= 1.5 and .ranks.phases[0].last_done_s == .ranks.phases[0].elapsed_s' "$T/out"
check "rank 1 late: the top-level write is over that interval" jqok '.elapsed_s >= 1.5' "$T/out"
check "rank 1 late: directories removed" test -z "$(ls -A "$D")"

check_exit "4 ranks: io write, text" 0 run4 "$SB" io --rw write --bs 1m --size 4m --directory "$D"
check "text: ranks line" grep -q '^ranks: 4 on 1 host' "$T/out"
check "text: aggregate and per-rank lines" \
    sh -c "grep -q '^  write: aggregate BW=' '$T/out' && grep -q 'first done' '$T/out'"
check "text: one summary (rank 0 alone prints)" test "$(grep -c '^storbench io: (groupid=' "$T/out")" -eq 1

# ---- files named by --filename: FILE.R per rank, kept; then read back ----
check_exit "4 ranks: io write FILE.R" 0 run4 "$SB" io --rw write --bs 64k --size 1m --filename "$D/f"
check "FILE.0 .. FILE.3 kept, 1 MiB each" \
    test "$(stat -c %s "$D"/f.0 "$D"/f.1 "$D"/f.2 "$D"/f.3 | sort -u)" = 1048576
check_exit "4 ranks: io read of the existing files" 0 run4 "$SB" io --rw read --bs 64k --size 1m \
    --filename "$D/f" --output-format storbench-json
check "existing data: no write phase" jqok '[.ranks.phases[].rw] == ["read"]' "$T/out"
rm -f "$D"/f.*

# ---- one shared file ----
check_exit "4 ranks: shared file" 0 run4 "$SB" io --rw randread --bs 4k --size 1m --shared-file \
    --filename "$D/shared" --output-format storbench-json
check "shared: one file of 4 regions" test "$(stat -c %s "$D/shared")" -eq 4194304
check "shared: json says so" jqok '.ranks.shared_file and .ranks.phases[1].bytes == 4194304' "$T/out"
check "shared: no per-rank files" test "$(ls -A "$D")" = shared
rm -f "$D/shared"
check_exit "4 ranks: shared temporary file in a directory" 0 run4 "$SB" io --rw write --bs 64k \
    --size 1m --shared-file --directory "$D"
check "shared temporary file removed" test -z "$(ls -A "$D")"

# ---- stonewalling: a 30 s job stopped by a 0.3 s wall on every rank ----
check_exit "4 ranks: stonewall" 0 run4 "$SB" io --rw randwrite --bs 4k --size 4m --time_based \
    --runtime 30 --stonewall 0.3 --directory "$D" --output-format storbench-json
J="$T/wall.json"; cp "$T/out" "$J"
check "stonewall: every rank stopped by the wall" jqok '.ranks.stonewall_s == 0.3 and .ranks.phases[0].ranks_stonewalled == 4' "$J"
check "stonewall: long before the runtime" jqok '.elapsed_s < 30' "$J"
check "stonewall: every rank did I/O" jqok '.ranks.phases[0].per_rank_bytes_min > 0' "$J"
check "stonewall: figure over all completed bytes" \
    jqok '.ranks.phases[0].bytes == .write.bytes and .write.bytes >= 4 * .ranks.phases[0].per_rank_bytes_min' "$J"
check "stonewall: not reported as interrupted" jqok '.interrupted == false' "$J"
check "stonewall: directories removed" test -z "$(ls -A "$D")"

# ---- a failing rank aborts every rank ----
mkdir "$D/f.2" # rank 2's file cannot be made
check_exit "failing rank: exit 1" 1 run4 "$SB" io --rw write --bs 64k --size 1m --time_based \
    --runtime 30 --filename "$D/f"
check_one_line "failing rank: one line naming rank and host" "rank 2 on $(hostname)"
check "failing rank: nothing on stdout" test ! -s "$T/out"
check "failing rank: the other ranks' files removed" test "$(ls -A "$D")" = f.2
rmdir "$D/f.2"

# ---- a failure relayed through a rank that already finished (docs/mpi.md, "Errors") ----
# 8 ranks; rank 4 fails after ~4 s (a file-size limit, the file grown by 100 KB/s writes);
# rank 5, its first child in the relay tree (and parent of ranks 7, 1, 3), ran 1 s and
# waits in the phase's checked barrier; the others run for 300 s unless told. Every rank
# must learn of the failure through rank 5 while it waits, long before its runtime.
relayed_failure() {
    timeout 150 "${MPIRUN[@]}" -np 8 sh -c 'rt=300; extra=
        case "$OMPI_COMM_WORLD_RANK" in
        4) trap "" XFSZ; ulimit -f 800; extra="--rate 100k --create_on_open=1" ;;
        5) rt=1 ;;
        esac
        exec "$@" --runtime "$rt" $extra' sh "$SB" io --rw write --bs 4k --size 1m --time_based --directory "$D"
}
check_exit "failure relayed past a waiting rank: exit 1, not the 300 s runtime" 1 relayed_failure
check_one_line "relayed failure: one line naming rank 4" "rank 4 on $(hostname): write at offset"
check "relayed failure: every rank's directory removed" test -z "$(ls -A "$D")"

# ---- run TEST on ranks: each rank its own directory, rank 0 writes the result file ----
export XDG_DATA_HOME="$T/xdg"
RF="$XDG_DATA_HOME/storbench/results/ranks.json"
check_exit "4 ranks: run fs-mark and dd" 0 run4 "$SB" run fs-mark:test=custom,files=20,size=64k \
    dd:count=4 --runs 1 --no-drop-caches --target "$D" --result ranks --identifier four
check "run: one report (rank 0 alone prints)" test "$(grep -c '^Saved 2 tests' "$T/out")" -eq 1
check "run: system fields name ranks, hosts, ranks per host" jqok \
    '.systems[0].hardware | .Ranks == "4" and .Hosts == "1" and ."Ranks Per Host" == "4"' "$RF"
check "run: system fields name the MPI" jqok '.systems[0].software.MPI | startswith("Open MPI")' "$RF"
sec() { jq -r --arg t "$1" --arg n "$2" \
    '[.results[] | select(.test == $t) | .entries[0].secondary[] | select(.name == $n) | .value][0]' "$RF"; }
check "run fs-mark: 4 ranks in the figure" test "$(sec fs-mark ranks)" = 4
check "run fs-mark: files of all ranks" test "$(sec fs-mark files_created)" = 80
check "run fs-mark: aggregate = files / (latest end - earliest start)" jqok \
    '[.results[] | select(.test == "fs-mark") | .entries[0]] | .[0] as $e |
     ($e.secondary | map({(.name): .value}) | add) as $s |
     (($e.mean - $s.files_created / $s.last_done_s) | fabs) < 0.01 * $e.mean and
     $s.rank_min <= $s.rank_mean and $s.rank_mean <= $s.rank_max and $s.first_done_s <= $s.last_done_s' "$RF"
check "run fs-mark: latency merged over every file" jqok \
    '[.results[] | select(.test == "fs-mark") | .entries[0].secondary[] | select(.name == "lat_p50")] | length == 1' "$RF"
check "run dd: three figures of 4 ranks" test "$(jq '[.results[] | select(.test == "dd") |
    .entries[0].secondary[] | select(.name == "ranks" and .value == 4)] | length' "$RF")" -eq 3
check "run: every rank removed its directory" test -z "$(ls -A "$D")"

# a failing rank: rank 2 may write no file beyond 100 KiB (SIGXFSZ ignored: EFBIG)
rank2_limited() {
    "${MPIRUN[@]}" -np 4 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 2 ]; then trap "" XFSZ; ulimit -f 200; fi
        exec "$@"' sh "$@"
}
check_exit "failing rank in run: exit 1" 1 rank2_limited "$SB" run fs-mark:test=custom,files=20,size=1m \
    --runs 1 --no-drop-caches --target "$D" --result failed
check_one_line "failing rank in run: one line naming rank and host" "rank 2 on $(hostname): fs-mark: write"
check "failing rank in run: no result file" test ! -e "$XDG_DATA_HOME/storbench/results/failed.json"
check "failing rank in run: every rank's directory removed" test -z "$(ls -A "$D")"
check_exit "run of a test that does not run on ranks" 2 "${MPIRUN[@]}" -np 2 "$SB" run postmark --target "$D"
check_one_line "run postmark under mpirun: one line" "postmark does not run on MPI ranks"

# ---- a job file on every rank (fio's clients): each job combined over the ranks ----
cat >"$T/ranks.fio" <<EOF
[global]
size=1m
bs=4k
[w]
rw=write
filename=$D/f
[r]
stonewall
rw=randread
filename=$D/f
[d]
stonewall
directory=$D
rw=randwrite
iodepth=4
ioengine=io_uring
EOF
check_exit "4 ranks: a job file of three jobs in three phases" 0 run4 "$SB" io "$T/ranks.fio" --output-format=json
J="$T/out"
check "job file: three jobs" jqok '[.jobs[].jobname] == ["w", "r", "d"]' "$J"
check "job file: each job's I/Os are all ranks' (4 x 256)" \
    jqok '.jobs[0].write.total_ios == 1024 and .jobs[1].read.total_ios == 1024 and .jobs[2].write.total_ios == 1024' "$J"
check "job file: latency merged over every rank's I/Os" jqok '.jobs[1].read.clat_ns.N == 1024' "$J"
check "job file: the ranks' figures under each job" \
    jqok 'all(.jobs[]; .storbench.ranks.ranks == 4 and .storbench.ranks.phases[0].ios == 1024)' "$J"
check "job file: bandwidth = all bytes / latest end - earliest start" \
    jqok 'all(.jobs[].storbench.ranks.phases[0]; (.bw_bytes_per_s * .elapsed_s - .bytes | fabs) < 0.01 * .bytes)' "$J"
check "job file: each rank its own file (FILE.R), the filename jobs' kept" \
    test "$(cd "$D" && ls -d f.0 f.1 f.2 f.3 2>/dev/null | wc -l)" -eq 4
check "job file: the directory jobs' files removed" test "$(ls -A "$D" | grep -vc '^f\.')" -eq 0
rm -f "$D"/f.*
check_exit "job file on ranks: text" 0 run4 "$SB" io "$T/ranks.fio"
check "text: a ranks line under each job" test "$(grep -c '^ranks: 4 on 1 host' "$T/out")" -eq 3
rm -f "$D"/f.*
printf '[w]\nrw=write\nsize=64k\ndirectory=%s\nwrite_bw_log=%s/lg\n' "$D" "$T" >"$T/logs.fio"
check_exit "job file on ranks: write_bw_log" 0 run4 "$SB" io "$T/logs.fio"
check "each rank its own log (PREFIX.R)" test "$(ls "$T"/lg.[0-3]_bw.1.log | wc -l)" -eq 4
check_exit "job file with --shared-file: refused" 2 run4 "$SB" io "$T/ranks.fio" --shared-file
check_one_line "job file --shared-file: one line" "for one job from flags"
# a file below a regular file: no directory can be made there (fio makes a missing one)
printf '[bad]\nrw=read\nsize=1m\nfilename=%s/ranks.fio/f\n' "$T" >"$T/bad.fio"
check_exit "job file on ranks: a job failing on every rank" 1 run4 "$SB" io "$T/bad.fio"
check "a failing job: one rank's line names the job" grep -q 'rank 0 on .*bad' "$T/err"

# ---- --ranks-per-job: each job of a file on its share of the ranks ----
# job i on ranks i*K .. i*K+K-1 modulo the ranks: each rank's files (FILE.R) show where
cat >"$T/rpj.fio" <<EOF
[global]
size=256k
bs=4k
[a]
rw=write
filename=$D/a
[b]
rw=randwrite
filename=$D/b
[c]
stonewall
rw=write
filename=$D/c
EOF
rm -rf "$D" && mkdir -p "$D"
check_exit "4 ranks, --ranks-per-job 2" 0 run4 "$SB" io "$T/rpj.fio" --ranks-per-job 2 --output-format=json
J="$T/out"
check "job a on ranks 0-1, b on 2-3, c (2 x 2 mod 4) on 0-1" \
    test "$(cd "$D" && echo *)" = "a.0 a.1 b.2 b.3 c.0 c.1"
check "each job's I/Os are its 2 ranks' (2 x 64)" \
    jqok '[.jobs[].write.total_ios] == [128, 128, 128]' "$J"
check "each job reports its 2 ranks" jqok 'all(.jobs[]; .storbench.ranks.ranks == 2)' "$J"
check "latency from its ranks' merged histograms" jqok 'all(.jobs[]; .write.clat_ns.N == 128)' "$J"
check "bandwidth = its ranks' bytes / their earliest start to latest end" \
    jqok 'all(.jobs[].storbench.ranks.phases[0]; .bytes == 2 * 262144 and (.bw_bytes_per_s * .elapsed_s - .bytes | fabs) < 0.01 * .bytes)' "$J"
check "the top-level figures are the ranks' sums (io_bytes)" \
    jqok 'all(.jobs[]; .write.io_bytes == 2 * 262144)' "$J"
rm -rf "$D" && mkdir -p "$D"
check_exit "4 ranks, --ranks-per-job 3: the jobs wrap round the ranks" 0 run4 "$SB" io "$T/rpj.fio" \
    --ranks-per-job 3 --output-format=json
check "a on 0-2, b on 3,0,1, c (6 mod 4 = 2) on 2,3,0" \
    test "$(cd "$D" && echo *)" = "a.0 a.1 a.2 b.0 b.1 b.3 c.0 c.2 c.3"
check "each job's I/Os are its 3 ranks'" jqok '[.jobs[].write.total_ios] == [192, 192, 192]' "$T/out"
rm -rf "$D" && mkdir -p "$D"
check_exit "--ranks-per-job 4 of 4: every rank, as without it" 0 run4 "$SB" io "$T/rpj.fio" --ranks-per-job 4 \
    --output-format=json
check "... 4 x 64 I/Os a job" jqok '[.jobs[].write.total_ios] == [256, 256, 256]' "$T/out"
rm -rf "$D" && mkdir -p "$D"
check_exit "--ranks-per-job 0: exit 2" 2 run4 "$SB" io "$T/rpj.fio" --ranks-per-job 0
check_one_line "... one line" "ranks-per-job"
check_exit "--ranks-per-job 5 on 4 ranks: exit 2" 2 run4 "$SB" io "$T/rpj.fio" --ranks-per-job 5
check_one_line "... one line" "more than the 4 ranks"
check_exit "--ranks-per-job with one job from flags: exit 2" 2 run4 "$SB" io --rw write --size 64k \
    --directory "$D" --ranks-per-job 2
check_one_line "... one line" "for job files"
check "nothing was written by the refused runs" test -z "$(ls -A "$D")"

# ---- what does not run on ranks ----
check_exit "list under mpirun: usage error" 2 "${MPIRUN[@]}" -np 2 "$SB" list
check_one_line "list under mpirun: one line" "not on 2 MPI ranks"
check_exit "one rank under mpirun" 0 "${MPIRUN[@]}" -np 1 "$SB" io --rw write --bs 64k --size 256k \
    --directory "$D" --output-format storbench-json
check "one rank: ranks section" jqok '.ranks.ranks == 1' "$T/out"
mkdir -p "$T/bin" && cp "$SB_BIN" "$T/bin/storbench"  # the binary, not the wrapper (which would exec the one beside storbench-mpi)
check_exit "no storbench-mpi beside it" 1 "${MPIRUN[@]}" -np 2 "$T/bin/storbench" io --rw write \
    --size 64k --directory "$D"
check_one_line "no storbench-mpi: one line" "no storbench-mpi"

# ---- plain storbench, no mpirun ----
check_exit "plain io: --ranks-per-job without mpirun: exit 2" 2 "$SB" io "$T/rpj.fio" --ranks-per-job 2
check_one_line "... one line" "under mpirun"
check_exit "plain io has no ranks section" 0 "$SB" io --rw write --bs 64k --size 256k \
    --directory "$D" --output-format storbench-json
check "plain json unchanged" jqok 'has("ranks") | not' "$T/out"
# a wall or a shared file means something only across ranks: refused alone (issue 24,
# item 11), and with one rank under mpirun it still runs
check_exit "plain io --stonewall refused" 2 "$SB" io --rw write --bs 4k --size 4m --time_based \
    --runtime 30 --stonewall 0.2 --directory "$D" --output-format storbench-json
check_one_line "plain --stonewall: one line" "stonewall is for MPI ranks"
check_exit "one rank: io --stonewall" 0 "${MPIRUN[@]}" -np 1 "$SB" io --rw write --bs 4k --size 4m \
    --time_based --runtime 30 --stonewall 0.2 --directory "$D" --output-format storbench-json
check "one rank: --stonewall stops it" jqok '.ranks.ranks == 1 and .ranks.phases[0].ranks_stonewalled == 1' "$T/out"
check_exit "--stonewall 0 refused" 2 "$SB" io --stonewall 0 --directory "$D"
check_one_line "--stonewall 0: one line" "stonewall"
finish
