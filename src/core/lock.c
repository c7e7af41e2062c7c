/*
 * lock — see lock.h. The protocol is the usual one for lock files that are
 * removed by their holder: open (or create, O_EXCL) the lock file, flock it,
 * then check that the name still leads to the inode just locked; if the
 * holder before us removed it meanwhile, our lock is on a dead inode and we
 * start again. Only a holder removes the file, and only one it owns, so two
 * processes never both believe they hold the lock.
 *
 * The wait polls flock(LOCK_NB) with a short, growing sleep instead of a
 * blocking flock(): a blocking call could only be bounded by a timer signal,
 * and the command's own signal handling must stay as it is while it waits.
 */
#include "core/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/clock.h"

unsigned sb_lock_timeout_ms(void)
{
    const char *s = getenv("STORBENCH_LOCK_TIMEOUT");
    if (s && *s) {
        char *end;
        double v = strtod(s, &end);
        if (end != s && *end == '\0' && v > 0 && v < 86400.0 * 7)
            return v * 1000 < 1 ? 1 : (unsigned)(v * 1000);
    }
    return SB_LOCK_DEFAULT_TIMEOUT_S * 1000u;
}

int sb_lock_path(const char *path, char *out, size_t len)
{
    const char *target = path;
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (!*base)
        return -EISDIR;
    if (strlen(base) + 6 > NAME_MAX)
        return -ENAMETOOLONG;
    int n = slash ? snprintf(out, len, "%.*s/.%s.lock", (int)(slash - target), target, base)
                  : snprintf(out, len, ".%s.lock", base);
    return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

long sb_lock_holder(int fd)
{
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
    if (!f)
        return 0;
    /* "1: FLOCK  ADVISORY  WRITE 1234 08:02:131 0 EOF"; a waiter's line has "->" after the
     * number. The device is the superblock's, which stat() does not give on btrfs (a
     * subvolume's own number): the inode alone is taken when the device does not match. */
    char line[512];
    long exact = 0, by_ino = 0;
    while (fgets(line, sizeof line, f)) {
        char kind[16], mode[16], access[16];
        long pid;
        unsigned maj, min;
        unsigned long ino;
        const char *p = strchr(line, ':');
        if (!p || strstr(line, "->"))
            continue;
        if (sscanf(p + 1, "%15s %15s %15s %ld %x:%x:%lu", kind, mode, access, &pid, &maj, &min,
                   &ino) != 7 || strcmp(kind, "FLOCK") || ino != (unsigned long)st.st_ino ||
            pid <= 0)
            continue;
        if (maj == major(st.st_dev) && min == minor(st.st_dev))
            exact = pid;
        else
            by_ino = pid;
    }
    fclose(f);
    return exact ? exact : by_ino;
}

/* mkdir -p of the directory part of path. */
static int make_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;
    *slash = '\0';
    for (char *p = buf + 1;; p++) {
        bool end = *p == '\0';
        if (*p != '/' && !end)
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
            return -errno;
        if (end)
            return 0;
        *p = '/';
    }
}

/* Opens the lock file, creating it (and its directory) when missing. The fd, or -errno. */
static int open_lock_file(const char *lp)
{
    const int flags = O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(lp, O_RDWR | flags);
        if (fd < 0 && errno == EACCES) /* someone else's file: reading is enough to flock */
            fd = open(lp, O_RDONLY | flags);
        if (fd >= 0 || errno != ENOENT)
            return fd >= 0 ? fd : -errno;
        fd = open(lp, O_RDWR | O_CREAT | O_EXCL | flags, 0666);
        if (fd >= 0)
            return fd;
        if (errno == ENOENT) {
            int rc = make_dirs(lp);
            if (rc < 0)
                return rc;
        } else if (errno != EEXIST) {
            return -errno;
        }
    }
    return -EAGAIN;
}

/* Whether the name lp still leads to the inode st describes. */
static bool still_named(const char *lp, const struct stat *st)
{
    struct stat now;
    return lstat(lp, &now) == 0 && now.st_dev == st->st_dev && now.st_ino == st->st_ino;
}

/* Waits for flock on fd until deadline (announcing a wait of a second). 0 or -ETIMEDOUT. */
static int wait_flock(int fd, const char *lp, const sb_lock_wait *w, uint64_t start,
                      uint64_t deadline, bool *announced)
{
    unsigned nap = 1;
    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return -errno;
        uint64_t now = sb_now_ns();
        if (now >= deadline)
            return -ETIMEDOUT;
        if (!*announced && now - start >= 1000000000ull && w && w->waiting) {
            *announced = true;
            w->waiting(w->arg, lp, sb_lock_holder(fd));
        }
        /* a signal cuts the nap short; the loop simply looks again */
        sb_sleep_ms(nap);
        nap = nap < 50 ? nap * 2 : 50;
    }
}

int sb_lock_take(sb_lock *l, const char *path, const sb_lock_wait *w, char *err, size_t errlen)
{
    l->fd = -1;
    int rc = sb_lock_path(path, l->path, sizeof l->path);
    if (rc < 0) {
        snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(-rc));
        return rc;
    }
    unsigned timeout = w && w->timeout_ms ? w->timeout_ms : sb_lock_timeout_ms();
    uint64_t start = sb_now_ns(), deadline = start + (uint64_t)timeout * 1000000ull;
    bool announced = false;
    for (;;) {
        int fd = open_lock_file(l->path);
        if (fd < 0) {
            if (fd == -ELOOP)
                snprintf(err, errlen, "%s: its lock file %s is a symbolic link; not followed", path,
                         l->path);
            else
                snprintf(err, errlen, "%s: cannot open its lock file %s: %s", path, l->path,
                         strerror(-fd));
            return fd;
        }
        struct stat st;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            snprintf(err, errlen, "%s: its lock file %s is not a regular file", path, l->path);
            return -EINVAL;
        }
        rc = wait_flock(fd, l->path, w, start, deadline, &announced);
        if (rc == -ETIMEDOUT) {
            long holder = sb_lock_holder(fd);
            char who[64] = "another process";
            if (holder > 0)
                snprintf(who, sizeof who, "pid %ld", holder);
            snprintf(err, errlen, "%s: still locked by %s after %.0f s (lock file %s); gave up",
                     path, who, timeout / 1000.0, l->path);
        } else if (rc < 0) {
            snprintf(err, errlen, "%s: cannot lock %s: %s", path, l->path, strerror(-rc));
        }
        if (rc < 0) {
            close(fd);
            return rc;
        }
        if (still_named(l->path, &st)) {
            l->fd = fd;
            l->dev = st.st_dev;
            l->ino = st.st_ino;
            return 0;
        }
        close(fd); /* the holder before us removed it: take the one there now */
    }
}

void sb_lock_release(sb_lock *l)
{
    if (l->fd < 0)
        return;
    /* Removed while still held, so that no one locks it after we let go and before it
     * goes; only a file of ours (someone else's file there is theirs to remove). */
    struct stat st;
    if (fstat(l->fd, &st) == 0 && st.st_uid == geteuid() && still_named(l->path, &st))
        unlink(l->path);
    close(l->fd);
    l->fd = -1;
}
