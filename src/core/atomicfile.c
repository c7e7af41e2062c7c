/*
 * atomicfile — replace a file's content without ever losing the old one
 * (see atomicfile.h for the rules: symlinks followed, mode and owner kept,
 * non-regular files written in place).
 *
 * The new content goes to an anonymous O_TMPFILE inode in the target's
 * directory, which a crash or SIGKILL cannot leave behind; only once it is
 * complete and fsynced does it get a name (".BASE.PID.tmp") for the instant
 * before the rename. Where O_TMPFILE is not supported the named temporary is
 * used from the start. A name left by a killed process (its PID no longer
 * alive) is removed by the next write of the same file.
 */
#include "core/atomicfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_resolve_symlinks(const char *path, char *out, size_t len)
{
    char cur[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return -ENAMETOOLONG;
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
            break;
        if (hops == 40)
            return -ELOOP;
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0)
            return -errno;
        target[n] = '\0';
        char next[PATH_MAX];
        const char *slash = strrchr(cur, '/');
        int w;
        if (target[0] == '/' || !slash)
            w = snprintf(next, sizeof next, "%s", target);
        else
            w = snprintf(next, sizeof next, "%.*s/%s", (int)(slash - cur), cur, target);
        if (w < 0 || w >= (int)sizeof next)
            return -ENAMETOOLONG;
        memcpy(cur, next, (size_t)w + 1);
    }
    if (snprintf(out, len, "%s", cur) >= (int)len)
        return -ENAMETOOLONG;
    return 0;
}

/* ---- a FILE* that remembers why a write failed ---- */

typedef struct tracked {
    int fd;
    int *werr;
} tracked;

static ssize_t tracked_write(void *c, const char *buf, size_t n)
{
    tracked *t = c;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(t->fd, buf + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!*t->werr)
                *t->werr = w < 0 ? errno : EIO;
            return off ? (ssize_t)off : -1;
        }
        off += (size_t)w;
    }
    return (ssize_t)n;
}

static int tracked_close(void *c)
{
    tracked *t = c;
    int rc = close(t->fd);
    if (rc < 0 && !*t->werr)
        *t->werr = errno;
    free(t);
    return rc;
}

FILE *sb_fdopen_tracked(int fd, int *werr)
{
    tracked *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    t->fd = fd;
    t->werr = werr;
    *werr = 0;
    cookie_io_functions_t io = {.write = tracked_write, .close = tracked_close};
    FILE *f = fopencookie(t, "w", io);
    if (!f)
        free(t);
    return f;
}

/* ---- helpers ---- */

/* mkdir -p for the directory part of path. */
static int make_parent_dirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;
    *slash = 0;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) < 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, 0755) < 0 && errno != EEXIST)
        return -errno;
    return 0;
}

/* Runs fn on fd (which it takes over); 0 or -errno of the first failure, fsync included. */
static int write_fd(int fd, bool sync, sb_atomic_writer fn, void *ctx)
{
    int werr = 0;
    FILE *f = sb_fdopen_tracked(fd, &werr);
    if (!f) {
        close(fd);
        return -ENOMEM;
    }
    int rc = fn(f, ctx);
    if (fflush(f) != 0 && !werr)
        werr = EIO;
    if (!rc && !werr && sync && fsync(fd) < 0 && errno != EINVAL && errno != EROFS)
        werr = errno;
    fclose(f);
    if (werr)
        return -werr;
    return rc < 0 ? rc : 0;
}

/* Removes ".BASE.PID.tmp" files in dir whose PID is no longer alive. */
static void remove_stale(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t bl = strlen(base);
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (n[0] != '.' || strncmp(n + 1, base, bl) || n[1 + bl] != '.')
            continue;
        char *end;
        long pid = strtol(n + 2 + bl, &end, 10);
        if (pid <= 0 || end == n + 2 + bl || strcmp(end, ".tmp"))
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        unlinkat(dirfd(d), n, 0);
    }
    closedir(d);
}

int sb_atomic_write(const char *path, mode_t new_mode, int make_dirs, sb_atomic_writer fn,
                    void *ctx, char *err, size_t errlen)
{
    char target[PATH_MAX];
    int rc = sb_resolve_symlinks(path, target, sizeof target);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    struct stat st;
    bool exists = stat(target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory", path);
        return -EISDIR;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device, FIFO or socket: a rename would replace it with a plain file. */
        int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
            rc = -errno;
            snprintf(err, errlen, "%s: %s", path, strerror(-rc));
            return rc;
        }
        rc = write_fd(fd, false, fn, ctx);
        if (rc < 0)
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
        return rc;
    }
    if (make_dirs && (rc = make_parent_dirs(target)) < 0) {
        snprintf(err, errlen, "%s: cannot create its directory: %s", path, strerror(-rc));
        return rc;
    }

    char dir[PATH_MAX], tmp[2 * PATH_MAX + 32];
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == target)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target);
    snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, base, (long)getpid());
    remove_stale(dir, base);

    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = exists ? (st.st_mode & 07777) : (new_mode & ~mask);

    /* The anonymous inode gets its name through /proc: without /proc, a named temporary. */
    bool anonymous = access("/proc/self/fd", X_OK) == 0;
    int fd = anonymous ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600) : -1;
    if (fd < 0) {
        anonymous = false;
        unlink(tmp); /* ours from an earlier attempt in this process, if any */
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    }
    if (fd < 0) {
        rc = -errno;
        snprintf(err, errlen, "%s: cannot create a file beside it: %s", path, strerror(-rc));
        return rc;
    }
    /* Owner first: chown clears the set-id bits that fchmod then restores. */
    if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()))
        if (fchown(fd, st.st_uid, st.st_gid) < 0 && fchown(fd, (uid_t)-1, st.st_gid) < 0) {
            /* Not permitted: the file becomes ours, as any editor's save would. */
        }
    fchmod(fd, mode);

    /* write_fd closes fd; the anonymous inode needs a name first, through /proc. */
    int keep = anonymous ? dup(fd) : -1;
    if (anonymous && keep < 0) {
        rc = -errno;
        close(fd);
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    rc = write_fd(fd, true, fn, ctx);
    if (!rc && anonymous) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", keep);
        unlink(tmp);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) < 0)
            rc = -errno;
    }
    if (keep >= 0)
        close(keep);
    if (!rc && rename(tmp, target) < 0)
        rc = -errno;
    if (rc < 0) {
        unlink(tmp);
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
        return rc;
    }
    /* fsync the directory so that the rename itself is durable. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}
