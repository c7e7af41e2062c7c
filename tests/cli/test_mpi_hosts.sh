#!/bin/bash
# Two hosts, for real, on this machine (issue 30): each "host" is a set of
# namespaces held by a small holder process — its own network (a veth pair
# joins the two, 10.77.0.0/24; nothing is added to this machine's own
# network), its own UTS name (sbhost1, sbhost2), its own mount namespace with
# its own tmpfs at $T/local (the target and rank 0's result directory), its own
# /tmp (Open MPI's session directory) and /etc/hosts. Open MPI starts the
# ranks across them from mpirun in sbhost1, with an rsh agent that enters the
# other host's namespaces (nsenter) the way ssh would log in; its daemon comes
# back over TCP on the veth. 2 hosts x 2 ranks:
#   - io write+read: hosts, ranks per host, and the page cache dropped once per
#     host (in each host's mount namespace /proc/sys/vm/drop_caches is a FIFO
#     the holder reads, so the drops are counted and this machine's cache is
#     left alone — make check runs beside measurements);
#   - run fs-mark and dd: rank 0's result file on sbhost1 only, with Ranks,
#     Hosts, Ranks Per Host and both hosts' storage described;
#   - a failing rank on the second host (its tmpfs full): exit 1, one line
#     naming it, nothing saved, no process of the job left.
# Every namespace, veth and mount dies with its holders, which the exit trap
# kills and which end by themselves within half a second if this script is
# killed; processes of a killed run (marked by STORBENCH_TEST_HOSTS in their
# environment) are killed by pid at the next start. Skipped, visibly, without
# root, namespaces, veth or Open MPI. Behaviour only, never speed.
. "$(dirname "$0")/lib.sh"

# jqok FILTER FILE: FILE holds JSON for which FILTER is true (jq -e alone passes an empty file)
jqok() { [ -s "$2" ] && jq -e "$1" "$2" >/dev/null 2>&1; }
skip() { ok "mpi hosts tests # SKIP $*"; finish; }

MPI_BIN="$(dirname "$SB_BIN")/storbench-mpi"
command -v mpirun >/dev/null 2>&1 && [ -x "$MPI_BIN" ] ||
    skip "no mpirun or no storbench-mpi (scripts/bootstrap installs Open MPI)"
[ "$(id -u)" = 0 ] || skip "namespaces and veth pairs need root"
# Each host has a /tmp of its own: a binary under /tmp (a clone there) is copied, with its
# storbench-mpi, beside the test's scratch under /var/tmp, which the hosts share.
case "$SB_BIN" in /tmp/*)
    old_bin=$SB_BIN
    mkdir -p "$T/bin" && cp "$SB_BIN" "$MPI_BIN" "$T/bin/" || skip "cannot copy the binary out of /tmp"
    SB_BIN=$T/bin/storbench MPI_BIN=$T/bin/storbench-mpi
    sed -i "s|$old_bin|$SB_BIN|g" "$SB" ;;
esac
for c in unshare nsenter ip; do command -v $c >/dev/null 2>&1 || skip "no $c (util-linux, iproute2)"; done

# marked RUN: the pids of processes whose environment says STORBENCH_TEST_HOSTS=RUN (one
# grep over /proc)
marked() {
    grep -lzx "STORBENCH_TEST_HOSTS=$1" /proc/[0-9]*/environ 2>/dev/null |
        sed 's|^/proc/\([0-9]*\)/environ$|\1|'
}
# ---- leftovers of a killed run: its processes carry its pid in their environment ----
STATE=/run/storbench-test-hosts
mkdir -p "$STATE"
for f in "$STATE"/*; do
    [ -f "$f" ] || continue
    old=${f##*/}
    kill -0 "$old" 2>/dev/null && continue # a run still going (another worktree's)
    for p in $(marked "$old"); do kill -9 "$p" 2>/dev/null && echo "# removed process $p of killed run $old"; done
    d=$(cat "$f") # its scratch directory (lib.sh's trap did not run)
    case "$d" in /var/tmp/sbtest.*) [ -d "$d" ] && rm -rf "$d" && echo "# removed $d of killed run $old" ;; esac
    rm -f "$f"
done
echo "$T" >"$STATE/$$"
MARK=STORBENCH_TEST_HOSTS=$$ # in the environment of the holders and of mpirun, hence of all they start

# every process of this run, by pid (the holders, and whatever mpirun left)
ours() { marked $$; }
HOLDERS=()
teardown() {
    [ ${#HOLDERS[@]} -gt 0 ] && kill "${HOLDERS[@]}" 2>/dev/null
    local p
    for p in $(ours); do kill -9 "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -f "$STATE/$$"
    rm -rf "$T"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# ---- the hosts ----
printf '127.0.0.1 localhost\n10.77.0.1 sbhost1\n10.77.0.2 sbhost2\n' >"$T/etc-hosts"
mkdir -p "$T/local"
# holder NAME: its namespaces, mounts and drop counter; runs until this script ends
holder() {
    local n=$1 d=$T/$1
    mkdir -p "$d"
    mkfifo "$d/drop_caches"
    env "$MARK" unshare --net --uts --mount --propagation private bash -c '
        set -e
        hostname "$1"; ip link set lo up
        mount -t tmpfs -o size=$4 "sbdisk-$1" "$2/local"
        mkdir "$2/local/target" "$2/local/xdg"
        mount -t tmpfs -o size=64m tmp /tmp
        mount --bind "$2/etc-hosts" /etc/hosts
        mount --bind "$3/drop_caches" /proc/sys/vm/drop_caches
        exec 3<>"$3/drop_caches"
        : >"$3/ready"
        set +e
        while kill -0 "$5" 2>/dev/null; do read -r -t 0.5 l <&3 && echo "$l" >>"$3/drops"; done
        ' holder "$n" "$T" "$d" "$2" $$ 2>"$d/err" &
    HOLDERS+=($!)
}
holder sbhost1 48m
holder sbhost2 32m
H1=${HOLDERS[0]} H2=${HOLDERS[1]}
for i in $(seq 100); do [ -e "$T/sbhost1/ready" ] && [ -e "$T/sbhost2/ready" ] && break; sleep 0.1; done
[ -e "$T/sbhost1/ready" ] && [ -e "$T/sbhost2/ready" ] ||
    skip "cannot make the hosts' namespaces here: $(cat "$T"/sbhost*/err | head -c 200)"
nsenter -t "$H1" -n ip link add sbveth1 type veth peer name sbveth2 netns "/proc/$H2/ns/net" 2>"$T/veth.err" ||
    skip "no veth pair: $(head -c 200 "$T/veth.err")"
nsenter -t "$H1" -n sh -c 'ip addr add 10.77.0.1/24 dev sbveth1 && ip link set sbveth1 up' &&
    nsenter -t "$H2" -n sh -c 'ip addr add 10.77.0.2/24 dev sbveth2 && ip link set sbveth2 up' ||
    skip "cannot configure the veth pair"
check "hosts: own names" test "$(nsenter -t "$H1" -u hostname) $(nsenter -t "$H2" -u hostname)" = "sbhost1 sbhost2"

# the rsh agent: "AGENT [options] HOST COMMAND..." runs COMMAND in HOST's namespaces
cat >"$T/agent" <<EOF
#!/bin/sh
while [ "\${1#-}" != "\$1" ]; do shift; done
case "\$1" in sbhost1) p=$H1 ;; sbhost2) p=$H2 ;; *) echo "agent: no host \$1" >&2; exit 255 ;; esac
shift
exec nsenter -t "\$p" -n -u -m -- sh -c "\$*"
EOF
chmod +x "$T/agent"
printf 'sbhost1 slots=2\nsbhost2 slots=2\n' >"$T/hostfile"
L=$T/local # the same path on both hosts, a different tmpfs on each
export XDG_DATA_HOME=$L/xdg
# on2 COMMAND...: 4 ranks, 2 on each host, from mpirun on sbhost1 (bounded: a hang fails)
on2() {
    env "$MARK" timeout -k 5 120 nsenter -t "$H1" -n -u -m -- mpirun -q --allow-run-as-root --hostfile "$T/hostfile" -np 4 \
        --mca plm_rsh_agent "$T/agent" --mca plm_rsh_no_tree_spawn 1 \
        --mca oob_tcp_if_include 10.77.0.0/24 --mca btl_tcp_if_include 10.77.0.0/24 \
        --mca btl self,vader,tcp "$@"
}
# onhost HOST COMMAND...: a command in that host's mount namespace
onhost() { local p=$H1; [ "$1" = sbhost2 ] && p=$H2; shift; nsenter -t "$p" -m -- "$@"; }
# drops HOST: how many times the page cache was dropped there. The holder copies what
# arrives in the FIFO to a file when it gets to it: a line of our own, written after the
# drops, shows (FIFOs keep order) that all of them have been copied.
drops() {
    local f=$T/$1/drops i m="sync.$RANDOM.$RANDOM"
    echo "$m" >"$T/$1/drop_caches"
    for i in $(seq 1200); do grep -qx "$m" "$f" 2>/dev/null && break; sleep 0.05; done # a minute on a busy host
    grep -cx 3 "$f" 2>/dev/null || true
}

# ---- io write+read: 2 hosts x 2 ranks ----
check_exit "2 hosts: io read (write+read phases)" 0 on2 "$SB" io --rw read --bs 64k --size 1m \
    --directory "$L/target" --output-format storbench-json
J=$T/io.json; cp "$T/out" "$J"
check "io: 4 ranks on 2 hosts, 2 per host" jqok '.ranks.ranks == 4 and .ranks.hosts == 2 and .ranks.max_ranks_per_host == 2' "$J"
check "io: every phase moved 4 x size" jqok '[.ranks.phases[] | .bytes] == [4194304, 4194304]' "$J"
check "io: page cache dropped on every host" jqok '.ranks.page_cache_dropped == true' "$J"
check "io: dropped once on sbhost1, not by each of its ranks" test "$(drops sbhost1)" = 1
check "io: dropped once on sbhost2, not by each of its ranks" test "$(drops sbhost2)" = 1
check "io: each host's ranks removed their directories" \
    test -z "$(onhost sbhost1 ls -A "$L/target")$(onhost sbhost2 ls -A "$L/target")"

# ---- run on 2 hosts: rank 0 alone saves, on its host; the system names both hosts ----
: >"$T/sbhost1/drops"; : >"$T/sbhost2/drops"
check_exit "2 hosts: run fs-mark and dd" 0 on2 "$SB_BIN" run fs-mark:test=custom,files=20,size=64k \
    dd:count=4 --runs 1 --exact-runs --target "$L/target" --result hosts --identifier two
RF=$L/xdg/storbench/results/hosts.json
onhost sbhost1 cat "$RF" >"$T/hosts.json" 2>/dev/null
check "run: result file on rank 0's host" test -s "$T/hosts.json"
check "run: no result file on the other host" onhost sbhost2 test ! -e "$RF"
check "run: Ranks 4, Hosts 2, Ranks Per Host 2" jqok \
    '.systems[0].hardware | .Ranks == "4" and .Hosts == "2" and ."Ranks Per Host" == "2"' "$T/hosts.json"
check "run: each host's storage, named by host" jqok \
    '.systems[0].storage."Mount Source" == "sbdisk-sbhost1 (sbhost1); sbdisk-sbhost2 (sbhost2)"' "$T/hosts.json"
check "run: the figures are of 4 ranks on 2 hosts" jqok \
    '[.results[].entries[0].secondary | map({(.name): .value}) | add | .ranks == 4 and .hosts == 2] | length > 0 and all' "$T/hosts.json"
# one drop per run of each test, on each host (fs-mark 1 run, dd 1 run)
check "run: cache dropped once per run on sbhost1" test "$(drops sbhost1)" = 2
check "run: cache dropped once per run on sbhost2" test "$(drops sbhost2)" = 2
check "run: every rank removed its directory" \
    test -z "$(onhost sbhost1 ls -A "$L/target")$(onhost sbhost2 ls -A "$L/target")"

# ---- a rank failing on the second host: its tmpfs is full (the first had room) ----
onhost sbhost2 sh -c "cat /dev/zero >'$L/filler'" 2>/dev/null
# nothing of the job may stay behind: every process of this run but the holders
leftover() { for p in $(ours); do case " ${HOLDERS[*]} " in *" $p "*) ;; *) ps -o pid=,args= -p "$p"; esac; done; }
for how in "" --require-all; do
    n="failing host${how:+ $how}"
    check_exit "$n: exit 1" 1 on2 "$SB" run fs-mark:test=custom,files=20,size=64k $how \
        --runs 1 --exact-runs --target "$L/target" --result failed
    # (Open MPI's libevent may add "[warn] Epoll MOD(1) on fd N failed" as its daemons
    # close under load: its line, not storbench's, left out)
    sed -i '/^\[warn\] Epoll /d' "$T/err"
    check_one_line "$n: one line naming rank 2 on sbhost2" "rank 2 on sbhost2: fs-mark.*No space left"
    check "$n: nothing saved" onhost sbhost1 test ! -e "$L/xdg/storbench/results/failed.json"
    check "$n: every rank's directory removed" \
        test -z "$(onhost sbhost1 ls -A "$L/target")$(onhost sbhost2 ls -A "$L/target")"
    left=$(leftover)
    check "$n: no process of the job left${left:+ ($left)}" test -z "$left"
done
finish
