#!/bin/bash
# btrfs-loop — builds the seed 001 scenario "2-Disk RAID1 + LZO" on two loop
# devices (btrfs -d raid1 -m raid1, mounted with compress=lzo), runs
# bench/fidelity.sh on it, and tears it all down (unmount, detach, remove the
# images) however the run ends. Needs root.
#
#   bench/btrfs-loop.sh [FIDELITY OPTIONS] [ROUNDS]     (ROUNDS: 2)
#   e.g. bench/btrfs-loop.sh --only fio,dd --tsv /tmp/btrfs.tsv 2
#
# Environment: IMAGES=/var/tmp (where the two sparse image files and the
# mount point go), IMAGE_SIZE=8G (each, sparse; RAID1 keeps a copy on each, so the
# filesystem holds about that much; at 4G, PostMark's ~4.3 GB of writes and
# deletes left btrfs's metadata all pinned and the next fsync aborted the
# transaction with ENOSPC, read-only, twice on 2026-12-01), LOOP_DIRECT_IO=on (the loop devices do
# direct I/O on their image files, as a disk would not share the host's page
# cache; off: buffered, as before), and fidelity.sh's own variables.
# Exit: fidelity.sh's status, 1 when the scenario cannot be built, 2 on bad
# arguments, 130 interrupted.
set -u
IMAGES=${IMAGES:-/var/tmp}
IMAGE_SIZE=${IMAGE_SIZE:-8G}
HERE=$(cd "$(dirname "$0")" && pwd)

usage() { echo "btrfs-loop: $* (usage: bench/btrfs-loop.sh [FIDELITY OPTIONS] [ROUNDS])" >&2; exit 2; }
die() { echo "btrfs-loop: $*" >&2; exit 1; }

# fidelity.sh's options pass through; a last bare number is ROUNDS.
ARGS=("$@")
ROUNDS=2
if [ $# -gt 0 ] && [[ "${!#}" =~ ^[0-9]+$ ]] && { [ $# = 1 ] || [[ "${ARGS[$#-2]}" != --only && "${ARGS[$#-2]}" != --tsv ]]; }; then
    ROUNDS=${!#}
    unset 'ARGS[$#-1]'
fi
for a in "${ARGS[@]}"; do
    case "$a" in --table | --table=*) usage "--table does not run anything: use bench/fidelity.sh --table" ;; esac
done
[[ "$IMAGE_SIZE" =~ ^[1-9][0-9]*[MG]$ ]] || usage "IMAGE_SIZE must look like 4G or 3000M"
[ -d "$IMAGES" ] || usage "IMAGES=$IMAGES is not a directory"
[ "$(id -u)" = 0 ] || die "needs root (loop devices, mkfs, mount)"
for t in losetup mkfs.btrfs mount umount; do
    command -v "$t" >/dev/null || die "$t missing (apt-get install btrfs-progs util-linux)"
done
grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null || grep -qw btrfs /proc/filesystems ||
    die "this kernel has no btrfs"

DIR=""
LOOPS=()
MNT=""
CHILD=""
# shellcheck disable=SC2317  # called by the EXIT trap
teardown() {
    trap '' INT TERM HUP
    if [ -n "$CHILD" ]; then
        kill -TERM "$CHILD" 2>/dev/null   # fidelity.sh cleans up after itself
        wait "$CHILD" 2>/dev/null
    fi
    if [ -n "$MNT" ] && mountpoint -q "$MNT"; then
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            umount "$MNT" 2>/dev/null && break
            sleep 1
        done
        mountpoint -q "$MNT" && echo "btrfs-loop: could not unmount $MNT" >&2
    fi
    local l
    for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
    [ -n "$DIR" ] && rm -rf "$DIR"
    return 0
}
trap teardown EXIT
trap 'exit 130' INT TERM HUP

DIR=$(mktemp -d "$IMAGES/btrfs-loop.XXXXXX") || die "cannot create a directory in $IMAGES"
# PostgreSQL runs as user postgres: it must pass through to the mount point.
chmod 755 "$DIR"
for n in a b; do
    truncate -s "$IMAGE_SIZE" "$DIR/$n.img" || die "cannot make $DIR/$n.img"
    # Direct I/O on the backing file (LOOP_DIRECT_IO=on by default): without it the loop
    # device reads through the host's page cache of the image, and a random-read pair
    # measures whether the image's pages happen to be cached (0.06x and 6.7x in the same
    # run), not the stack. LOOP_DIRECT_IO=off gives the old behaviour.
    l=$(losetup -f --show --direct-io="${LOOP_DIRECT_IO:-on}" "$DIR/$n.img") || die "no free loop device"
    LOOPS+=("$l")
done
mkfs.btrfs -q -f -d raid1 -m raid1 "${LOOPS[@]}" >/dev/null || die "mkfs.btrfs failed"
# The kernel must know both devices before a multi-device mount.
command -v btrfs >/dev/null && btrfs device scan "${LOOPS[@]}" >/dev/null 2>&1
MNT="$DIR/mnt"
mkdir "$MNT"
mount -o compress=lzo "${LOOPS[0]}" "$MNT" || { MNT=""; die "mount failed"; }
chmod 755 "$MNT"
echo "btrfs-loop: btrfs RAID1 (data and metadata) + compress=lzo on ${LOOPS[*]} ($IMAGE_SIZE images in $DIR, loop direct I/O ${LOOP_DIRECT_IO:-on}), mounted at $MNT" >&2

# In the background, so that a TERM to this script is passed on (teardown)
# and the filesystem is unmounted only after fidelity.sh has cleaned up.
"$HERE/fidelity.sh" "${ARGS[@]}" "$MNT" "$ROUNDS" &
CHILD=$!
wait "$CHILD"
rc=$?
CHILD=""
exit $rc
