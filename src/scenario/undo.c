/*
 * undo — taking apart what a scenario run built, one kind of object at a
 * time: unmount, forget a btrfs device, stop bcache or md, detach a loop
 * device, remove a directory or an image file, stop an nbdkit (the FUSE mount
 * of modeled devices: undo_fuse.c); sb_undo_kinds (at the end) is the one table
 * of kinds, md's included. state.c replays its journal through
 * these; they use only system calls and sysfs, never the code that built the
 * objects, and each one first checks that the object is still what it was
 * (still a mount point, a loop device still backed by our image), so undoing
 * twice, or after somebody else reused a number, does no harm.
 */

/* Messages and sysfs paths are built in fixed buffers sized for real paths (PATH_MAX);
 * a longer one is cut, which GCC cannot prove never happens. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "scenario/undo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "scenario/scenario.h" /* SB_SCN_MAX_DEVICES: the members of an md array */

static const char *basename_of(const char *dev)
{
    return strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
}

static bool is_mountpoint(const char *path)
{
    struct stat a, b;
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s/..", path);
    if (stat(path, &a) < 0 || stat(parent, &b) < 0)
        return false;
    return a.st_dev != b.st_dev || a.st_ino == b.st_ino;
}

int sb_undo_umount(const char *mountpoint, FILE *log, char *err, size_t errlen)
{
    if (!is_mountpoint(mountpoint))
        return 0;
    for (int i = 0; i < 50; i++) {
        if (umount2(mountpoint, 0) == 0) {
            if (log)
                fprintf(log, "unmounted %s\n", mountpoint);
            return 0;
        }
        if (errno == EINVAL || errno == ENOENT)
            return 0;
        if (errno != EBUSY && errno != EINTR)
            break;
        sync();
        sb_sleep_ms(100);
    }
    int e = errno;
    if (e == EBUSY && umount2(mountpoint, MNT_DETACH) == 0) {
        /* Something still has a file open there: the filesystem goes when it lets go. */
        if (log)
            fprintf(log, "detached busy mount %s (it goes when its last user closes it)\n", mountpoint);
        return 0;
    }
    snprintf(err, errlen, "cannot unmount %s: %s", mountpoint, strerror(e));
    return -e;
}

void sb_undo_btrfs_forget(const char *dev)
{
#ifdef BTRFS_IOC_FORGET_DEV
    int fd = open("/dev/btrfs-control", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return;
    struct btrfs_ioctl_vol_args args;
    memset(&args, 0, sizeof args);
    snprintf(args.name, sizeof args.name, "%s", dev);
    ioctl(fd, BTRFS_IOC_FORGET_DEV, &args);
    close(fd);
#else
    (void)dev;
#endif
}

int sb_undo_bcache_stop(const char *backing, const char *cset, FILE *log, char *err, size_t errlen)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "/sys/block/%s/bcache/stop", basename_of(backing));
    if (access(p, F_OK) == 0) {
        int rc = sb_write_text(p, "1");
        for (int i = 0; i < 100 && access(p, F_OK) == 0; i++)
            sb_sleep_ms(50);
        if (access(p, F_OK) == 0) {
            snprintf(err, errlen, "cannot stop bcache on %s: %s", backing, rc < 0 ? strerror(-rc) : "still there");
            return rc < 0 ? rc : -EBUSY;
        }
        if (log)
            fprintf(log, "stopped bcache on %s\n", backing);
    }
    if (cset && *cset) {
        snprintf(p, sizeof p, "/sys/fs/bcache/%s/unregister", cset);
        if (access(p, F_OK) == 0) {
            sb_write_text(p, "1");
            for (int i = 0; i < 100 && access(p, F_OK) == 0; i++)
                sb_sleep_ms(50);
            if (log)
                fprintf(log, "unregistered bcache cache set %s\n", cset);
        }
    }
    return 0;
}

/* Clears the md 1.2 superblock's magic (4 KiB into the member) so nothing reassembles it. */
static void wipe_superblock(const char *dev)
{
    int fd = open(dev, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    static const char zeros[4096];
    if (pwrite(fd, zeros, sizeof zeros, 4096) == (ssize_t)sizeof zeros)
        fsync(fd);
    close(fd);
}

int sb_undo_md_stop(const char *md_dev, const char *members, FILE *log, char *err, size_t errlen)
{
    char path[PATH_MAX], list[SB_SCN_MAX_DEVICES * 64];
    snprintf(path, sizeof path, "/sys/block/%s/md", basename_of(md_dev));
    if (access(path, F_OK) < 0)
        return 0; /* gone already */
    snprintf(list, sizeof list, "%s", members);
    for (char *save = NULL, *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
        snprintf(path, sizeof path, "/sys/block/%s/md/dev-%s", basename_of(md_dev), basename_of(m));
        if (access(path, F_OK) < 0) {
            if (log)
                fprintf(log, "left %s alone: %s is no longer one of its members\n", md_dev, m);
            return 0;
        }
    }
    snprintf(path, sizeof path, "/sys/block/%s/md/array_state", basename_of(md_dev));
    int rc = -EBUSY;
    for (int i = 0; i < 50 && rc < 0; i++) /* busy for a moment after the unmount */
        if ((rc = sb_write_text(path, "clear")) < 0)
            sb_sleep_ms(100);
    if (rc < 0) {
        snprintf(err, errlen, "cannot stop %s: %s", md_dev, strerror(-rc));
        return rc;
    }
    snprintf(list, sizeof list, "%s", members);
    for (char *save = NULL, *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save))
        wipe_superblock(m);
    if (log)
        fprintf(log, "stopped %s\n", md_dev);
    return 0;
}

/* The backing file of a loop device per sysfs, without " (deleted)"; -ENOENT when none. */
static int backing_file(const char *dev, char *out, size_t len)
{
    const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
    char p[128];
    snprintf(p, sizeof p, "/sys/block/%s/loop/backing_file", name);
    int rc = sb_read_text(p, out, len);
    if (rc < 0)
        return rc;
    size_t n = strlen(out);
    if (n > 10 && !strcmp(out + n - 10, " (deleted)"))
        out[n - 10] = 0;
    return out[0] ? 0 : -ENOENT;
}

int sb_undo_loop_detach(const char *dev, const char *image, FILE *log, char *err, size_t errlen)
{
    char cur[4200];
    /* An autoclear device goes by itself when its last user closes it: give it a moment. */
    for (int i = 0; i < 10; i++) {
        if (backing_file(dev, cur, sizeof cur) < 0 || strcmp(cur, image))
            return 0;
        sb_sleep_ms(20);
    }
    int fd = open(dev, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENXIO)
            return 0;
        int e = errno;
        snprintf(err, errlen, "cannot open %s: %s", dev, strerror(e));
        return -e;
    }
    int rc = ioctl(fd, LOOP_CLR_FD, 0) < 0 ? -errno : 0;
    close(fd);
    if (rc == -ENXIO)
        rc = 0;
    if (rc == 0) {
        /* Detaching completes when the last user is gone. */
        for (int i = 0; i < 100; i++) {
            if (backing_file(dev, cur, sizeof cur) < 0 || strcmp(cur, image)) {
                if (log)
                    fprintf(log, "detached %s (%s)\n", dev, image);
                return 0;
            }
            sb_sleep_ms(20);
        }
        rc = -EBUSY;
    }
    snprintf(err, errlen, "cannot detach %s (%s): %s", dev, image, strerror(-rc));
    return rc;
}

int sb_undo_rmdir(const char *dir, FILE *log, char *err, size_t errlen)
{
    if (rmdir(dir) == 0) {
        if (log)
            fprintf(log, "removed directory %s\n", dir);
    } else if (errno != ENOENT) {
        int e = errno;
        snprintf(err, errlen, "cannot remove directory %s: %s", dir, strerror(e));
        return -e;
    }
    return 0;
}

int sb_undo_unlink_image(const char *path, FILE *log, char *err, size_t errlen)
{
    if (unlink(path) == 0) {
        if (log)
            fprintf(log, "removed image %s\n", path);
    } else if (errno != ENOENT) {
        int e = errno;
        snprintf(err, errlen, "cannot remove image %s: %s", path, strerror(e));
        return -e;
    }
    return 0;
}

/* Whether process pid runs nbdkit with sock among its arguments. */
static bool is_our_nbdkit(pid_t pid, const char *sock)
{
    char path[64], exe[PATH_MAX];
    snprintf(path, sizeof path, "/proc/%ld/exe", (long)pid);
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n < 0)
        return false;
    exe[n] = 0;
    const char *base = strrchr(exe, '/');
    if (strcmp(base ? base + 1 : exe, "nbdkit"))
        return false;
    snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char args[8192];
    ssize_t len = read(fd, args, sizeof args - 1);
    close(fd);
    if (len <= 0)
        return false;
    args[len] = 0;
    for (ssize_t i = 0; i < len; i += (ssize_t)strlen(args + i) + 1)
        if (!strcmp(args + i, sock))
            return true;
    return false;
}

int sb_undo_nbdkit(const char *pid_text, const char *sock, FILE *log, char *err, size_t errlen)
{
    char *end;
    long pid = strtol(pid_text, &end, 10);
    if (*end || pid <= 1)
        return 0;
    if (is_our_nbdkit((pid_t)pid, sock)) {
        kill((pid_t)pid, SIGTERM);
        /* Not our child (a killed run's): gone when /proc says it is no longer that nbdkit. */
        for (int i = 0; i < 50 && is_our_nbdkit((pid_t)pid, sock); i++)
            sb_sleep_ms(100);
        if (is_our_nbdkit((pid_t)pid, sock) && kill((pid_t)pid, SIGKILL) < 0 && errno != ESRCH) {
            int e = errno;
            snprintf(err, errlen, "cannot stop nbdkit %ld: %s", pid, strerror(e));
            return -e;
        }
        for (int i = 0; i < 50 && is_our_nbdkit((pid_t)pid, sock); i++)
            sb_sleep_ms(100);
        if (log)
            fprintf(log, "stopped nbdkit %ld (%s)\n", pid, sock);
    }
    struct stat s;
    if (lstat(sock, &s) == 0 && S_ISSOCK(s.st_mode) && unlink(sock) == 0 && log)
        fprintf(log, "removed socket %s\n", sock);
    return 0;
}

/* The table's uniform signature over the functions above. */
static int undo_mount(const char *a, const char *b, FILE *log, char *err, size_t errlen)
{
    return sb_undo_umount(a, log, err, errlen);
}

static int undo_btrfs(const char *a, const char *b, FILE *log, char *err, size_t errlen)
{
    sb_undo_btrfs_forget(a);
    return 0;
}

static int undo_dir(const char *a, const char *b, FILE *log, char *err, size_t errlen)
{
    return sb_undo_rmdir(a, log, err, errlen);
}

static int undo_image(const char *a, const char *b, FILE *log, char *err, size_t errlen)
{
    return sb_undo_unlink_image(a, log, err, errlen);
}

static int undo_fuse(const char *a, const char *b, FILE *log, char *err, size_t errlen)
{
    return sb_undo_fuse(a, log, err, errlen);
}

const sb_undo_kind sb_undo_kinds[] = {
    {SB_ST_MOUNT, undo_mount, "unmounted if it still is a mount point (a busy one waited for 5 s, then detached lazily)"},
    {SB_ST_DIR, undo_dir, "the mount-point directory removed (one already gone is fine)"},
    {SB_ST_BTRFS, undo_btrfs, "the device unregistered from btrfs (best effort)"},
    {SB_ST_BCACHE, sb_undo_bcache_stop, "bcache stopped on the backing device and its cache set unregistered"},
    {SB_ST_MD, sb_undo_md_stop, "the md array stopped if its members are still the journaled ones"},
    {SB_ST_FUSE, undo_fuse, "the modeled devices' FUSE mount unmounted, its connection aborted (fusectl) when a plain unmount is refused"},
    {SB_ST_LOOP, sb_undo_loop_detach, "the loop device detached if it is still backed by our image"},
    {SB_ST_IMAGE, undo_image, "the image file removed"},
    {SB_ST_NBDKIT, sb_undo_nbdkit, "the nbdkit of a --vm modeled disk stopped if that pid still is nbdkit on the journaled socket"},
    {NULL, NULL, NULL},
};

int sb_undo(const char *kind, const char *a, const char *b, FILE *log, char *err, size_t errlen)
{
    for (const sb_undo_kind *k = sb_undo_kinds; k->kind; k++)
        if (!strcmp(k->kind, kind))
            return k->undo(a, b, log, err, errlen);
    return 0;
}
