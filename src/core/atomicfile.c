/*
 * atomicfile — replace a file's content without ever losing the old one
 * (see atomicfile.h for the rules: symlinks followed under the protected-symlink
 * rule, mode and owner kept, non-regular files written in place). The path is
 * resolved once (core/safepath.h) and everything after works relative to the
 * descriptor of the directory it landed in (openat, linkat, renameat), so a
 * name swapped for a symlink after the check is replaced, never followed.
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

#include "core/safepath.h"

int sb_resolve_symlinks(const char *path, char *out, size_t len)
{
    sb_path_at at;
    char err[PATH_MAX + 256];
    int rc = sb_path_resolve(path, 0, &at, err, sizeof err);
    if (rc < 0)
        return rc;
    int w = !strcmp(at.base, ".") ? snprintf(out, len, "%s", at.dir)
                                  : snprintf(out, len, "%s%s%s", at.dir, strcmp(at.dir, "/") ? "/" : "", at.base);
    sb_path_at_close(&at);
    return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
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

/* Removes ".BASE.PID.tmp" files in the directory dir (O_PATH) whose PID is no longer alive. */
static void remove_stale(int dir, const char *base)
{
    int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
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

/* A device, FIFO or socket cannot be replaced by a rename without destroying it: it is
 * written in place. */
static int write_in_place(const sb_path_at *at, const char *path, sb_atomic_writer fn, void *ctx,
                          char *err, size_t errlen)
{
    int fd = openat(at->dirfd, at->base, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int rc = -errno;
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    int rc = write_fd(fd, false, fn, ctx);
    if (rc < 0)
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
    return rc;
}

/* The temporary inode in at's directory: anonymous (O_TMPFILE) when it can get its name
 * through /proc later, else the named temporary tmp. */
static int create_temp(const sb_path_at *at, const char *tmp, bool *anonymous)
{
    *anonymous = access("/proc/self/fd", X_OK) == 0;
    int fd = *anonymous ? openat(at->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600) : -1;
    if (fd < 0) {
        *anonymous = false;
        unlinkat(at->dirfd, tmp, 0); /* ours from an earlier attempt in this process, if any */
        fd = openat(at->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    }
    return fd < 0 ? -errno : fd;
}

/* The new content written to a temporary beside at->base, fsynced and renamed over it;
 * st is the existing file's (its mode and owner are kept), or NULL. */
static int replace(const sb_path_at *at, const struct stat *st, mode_t new_mode, const char *path,
                   sb_atomic_writer fn, void *ctx, char *err, size_t errlen)
{
    char tmp[NAME_MAX + 64];
    snprintf(tmp, sizeof tmp, ".%s.%ld.tmp", at->base, (long)getpid());
    remove_stale(at->dirfd, at->base);
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = st ? (st->st_mode & 07777) : (new_mode & ~mask);

    bool anonymous;
    int rc, fd = create_temp(at, tmp, &anonymous);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create a file beside it: %s", path, strerror(-fd));
        return fd;
    }
    /* Owner first: chown clears the set-id bits that fchmod then restores. */
    if (st && (st->st_uid != geteuid() || st->st_gid != getegid()))
        if (fchown(fd, st->st_uid, st->st_gid) < 0 && fchown(fd, (uid_t)-1, st->st_gid) < 0) {
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
        unlinkat(at->dirfd, tmp, 0);
        if (linkat(AT_FDCWD, proc, at->dirfd, tmp, AT_SYMLINK_FOLLOW) < 0)
            rc = -errno;
    }
    if (keep >= 0)
        close(keep);
    /* renameat replaces the name, never what a symlink swapped in since would point to */
    if (!rc && renameat(at->dirfd, tmp, at->dirfd, at->base) < 0)
        rc = -errno;
    if (rc < 0) {
        unlinkat(at->dirfd, tmp, 0);
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(-rc));
        return rc;
    }
    /* fsync the directory so that the rename itself is durable. */
    int dfd = openat(at->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}

int sb_atomic_write(const char *path, mode_t new_mode, int make_dirs, sb_atomic_writer fn,
                    void *ctx, char *err, size_t errlen)
{
    sb_path_at at;
    int rc = sb_path_resolve(path, make_dirs ? SB_PATH_MKDIRS : 0, &at, err, errlen);
    if (rc < 0)
        return rc;
    struct stat st;
    bool exists = fstatat(at.dirfd, at.base, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
        /* the walk ended on a non-link: one was put there since */
        snprintf(err, errlen, "%s: became a symlink while it was being opened", path);
        rc = -ELOOP;
    } else if (exists && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory", path);
        rc = -EISDIR;
    } else if (exists && !S_ISREG(st.st_mode)) {
        rc = write_in_place(&at, path, fn, ctx, err, errlen);
    } else {
        rc = replace(&at, exists ? &st : NULL, new_mode, path, fn, ctx, err, errlen);
    }
    sb_path_at_close(&at);
    return rc;
}
