#!/bin/bash
# uring-handoff — how fio and storbench drive one io_uring job, side by side: the ring each
# sets up and registers (strace), the io_uring_enter calls each makes per I/O, and what the
# threads of each process do meanwhile (the io-wq workers the kernel started, the CPU each
# thread ran on, its voluntary and involuntary context switches per second). It is the
# measurement behind docs/performance.md "A sweep against fio": on tmpfs a buffered read is
# handed to an io-wq worker and back, and at low iodepth that hand-off, not the tool, sets
# the IOPS. Run by hand on the machine whose figures it should explain, never from `make check`:
#
#   bench/uring-handoff.sh [DIR] [IODEPTH]        (default /dev/shm 4)
#   env: SB=./storbench RUNTIME=4 SIZE=256m DIRECT=0 EXTRA= (more flags for both tools)
set -eu
DIR=${1:-/dev/shm}
QD=${2:-4}
SB=${SB:-./storbench}
RUNTIME=${RUNTIME:-4}
SIZE=${SIZE:-256m}
DIRECT=${DIRECT:-0}
EXTRA=${EXTRA:-}
for c in fio strace jq; do
    command -v "$c" >/dev/null || { echo "uring-handoff: needs $c" >&2; exit 1; }
done
[ -x "$SB" ] || { echo "uring-handoff: $SB not built (make)" >&2; exit 1; }
awk -v r="$RUNTIME" 'BEGIN { exit !(r >= 3) }' || { echo "uring-handoff: RUNTIME must be 3 s or more" >&2; exit 2; }
W=$(mktemp -d "$DIR/uring-handoff.XXXXXX")
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM

cmd() { # TOOL RUNTIME: the job's command line, its files in W/TOOL
    mkdir -p "$W/$1"
    local t=(fio) job
    [ "$1" = sb ] && t=("$SB" io)
    # shellcheck disable=SC2206 # EXTRA is split into flags on purpose
    job=(--name=j --directory="$W/$1" --rw=randread --bs=4k --ioengine=io_uring --iodepth="$QD"
        --direct="$DIRECT" --size="$SIZE" --runtime="$2" --time_based --output-format=json $EXTRA)
    CMD=("${t[@]}" "${job[@]}")
}

calls() { # TOOL: the ring set-up, registrations and io_uring_enter calls of a 1 s run under strace
    cmd "$1" 1
    strace -f -o "$W/$1.st" -e trace=io_uring_setup,io_uring_enter,io_uring_register "${CMD[@]}" >/dev/null 2>&1
    # the job's ring: the set-up whose entries are the iodepth (storbench probes with a small one)
    grep -o "io_uring_setup($QD, {flags=[^,]*, .*cq_entries=[0-9]*" "$W/$1.st" |
        sed 's/io_uring_setup(\([0-9]*\), {flags=\([^,]*\),.*\(sq_entries=[0-9]*\), \(cq_entries=[0-9]*\)/  setup: entries \1, flags \2, \3, \4/'
    grep -o 'io_uring_register([0-9]*, IORING_REGISTER_[A-Z_]*' "$W/$1.st" | sed 's/.*, /  register: /' | sort | uniq -c
    # io_uring_enter(fd, to_submit, min_complete, flags, ...): submitting (to_submit > 0) or waiting
    grep -o 'io_uring_enter([0-9]*, [0-9]*, [0-9]*, [A-Z_|0-9]*' "$W/$1.st" |
        awk -F', ' '{ k = ($2 > 0 ? "submit " : "wait   ") "min_complete " $3 " " $4; n[k]++ }
            END { for (k in n) printf "  enter: %8d x %s\n", n[k], k }' | sort -k2,2nr
    rm -rf "${W:?}/$1" "$W/$1.st"
}

threads() { # TOOL: one run; at its middle, each thread's CPU and switches per second over 1 s
    cmd "$1" "$RUNTIME"
    "${CMD[@]}" >"$W/$1.json" 2>/dev/null &
    local pid=$! half
    half=$(awk -v r="$RUNTIME" 'BEGIN { print r / 2 }')
    sleep "$half" # past the file's layout (well under a second on tmpfs), 1 s before the end at least
    snap() { # the job's threads: pid/tid comm cpu voluntary involuntary
        for p in $(pgrep -f -- "--directory=$W/$1"); do
            for t in /proc/"$p"/task/*; do
                [ -r "$t/status" ] || continue
                printf '%s %s %s %s\n' "${t##*/}" "$(tr ' ' _ <"$t/comm")" "$(awk '{ print $39 }' "$t/stat")" \
                    "$(awk '/^voluntary_ctxt/ { v = $2 } /^nonvoluntary_ctxt/ { n = $2 } END { print v, n }' "$t/status")"
            done 2>/dev/null
        done
    }
    snap "$1" >"$W/a"
    sleep 1
    snap "$1" >"$W/b"
    wait "$pid" || true
    sed -n '/^{/,$p' "$W/$1.json" | jq -r '"  IOPS \(.jobs[0].read.iops | floor) (the whole run)"'
    echo "  thread (1 s at mid-run)  cpu  voluntary/s  involuntary/s"
    join <(sort "$W/a") <(sort "$W/b") | awk '{ printf "  %-16s %3s  %11d  %13d\n", $2, $7, $8 - $4, $9 - $5 }'
    echo "  io-wq workers: $(grep -c ' iou-wrk' "$W/b" || true)"
    rm -rf "${W:?}/$1" "$W/$1.json" "$W/a" "$W/b"
}

echo "uring-handoff: $("$SB" --version 2>/dev/null | head -1), $(fio --version); kernel $(uname -r);" \
    "$(nproc) CPUs; DIR=$DIR iodepth $QD DIRECT=$DIRECT; load $(cut -d' ' -f1-3 /proc/loadavg)"
for tool in fio sb; do
    echo "== $tool: calls (1 s under strace, which slows the submitter: the ring is then nearly always ready)"
    calls "$tool"
    echo "== $tool: threads"
    threads "$tool"
done
