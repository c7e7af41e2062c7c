/*
 * safepath — the component-by-component walk of safepath.h: each name is looked
 * at with fstatat(AT_SYMLINK_NOFOLLOW) relative to the descriptor of the directory
 * reached so far; a symlink is checked against that directory's mode and owner
 * before its target is read, and a directory is entered with O_NOFOLLOW, so that
 * no name is resolved twice between the check and its use.
 */
#include "core/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINKS 40 /* the kernel's limit (MAXSYMLINKS) */

bool sb_symlink_followable(const struct stat *dir, uid_t link_uid)
{
    if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
        return true;
    return link_uid == dir->st_uid || link_uid == geteuid();
}

/* dir = dir/name as text ("." and ".." folded, as the walk went physically). */
static int dir_push(char *dir, size_t len, const char *name)
{
    if (!strcmp(name, "."))
        return 0;
    if (!strcmp(name, "..")) {
        char *slash = strrchr(dir, '/');
        const char *last = slash ? slash + 1 : dir;
        if (!strcmp(dir, "/"))
            return 0;
        if (strcmp(last, "..") && strcmp(last, ".")) {
            if (!slash)
                snprintf(dir, len, ".");
            else if (slash == dir)
                dir[1] = '\0';
            else
                *slash = '\0';
            return 0;
        }
        if (!strcmp(dir, "."))
            return snprintf(dir, len, "..") >= (int)len ? -ENAMETOOLONG : 0;
    }
    size_t n = strlen(dir);
    int w = snprintf(dir + n, len - n, "%s%s", dir[n - 1] == '/' ? "" : "/", name);
    return w < 0 || (size_t)w >= len - n ? -ENAMETOOLONG : 0;
}

/* Moves at->dirfd to the root (an absolute path or link target). */
static int to_root(sb_path_at *at)
{
    int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (at->dirfd >= 0)
        close(at->dirfd);
    at->dirfd = fd;
    snprintf(at->dir, sizeof at->dir, "/");
    return 0;
}

/* The next component of *p into name (slashes skipped); false when none is left. */
static bool next_name(const char **p, char *name, size_t len, int *rc)
{
    const char *s = *p;
    while (*s == '/')
        s++;
    if (!*s)
        return false;
    const char *e = strchr(s, '/');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n >= len) {
        *rc = -ENAMETOOLONG;
        return false;
    }
    memcpy(name, s, n);
    name[n] = '\0';
    *p = s + n;
    return true;
}

static bool nothing_left(const char *p)
{
    while (*p == '/')
        p++;
    return !*p;
}

/* The symlink name in at's directory: checked, then its target put in front of what
 * is left of the path (rest, which p points into). */
static int follow(sb_path_at *at, const char *name, const struct stat *ls, char *rest,
                  size_t restlen, const char **p, const char *path, char *err, size_t errlen)
{
    struct stat ds;
    if (fstat(at->dirfd, &ds) < 0)
        return -errno;
    if (!sb_symlink_followable(&ds, ls->st_uid)) {
        char link[PATH_MAX + NAME_MAX + 2];
        snprintf(link, sizeof link, "%s%s%s", at->dir, strcmp(at->dir, "/") ? "/" : "", name);
        at->refused = true;
        snprintf(err, errlen, "%s: not following the symlink%s%s: it is owned by uid %u, in the sticky "
                 "world-writable directory %s, and is neither yours nor the directory owner's",
                 path, strcmp(link, path) ? " " : "", strcmp(link, path) ? link : "",
                 (unsigned)ls->st_uid, at->dir);
        return -EACCES;
    }
    char target[PATH_MAX];
    ssize_t n = readlinkat(at->dirfd, name, target, sizeof target - 1);
    if (n < 0)
        return -errno;
    target[n] = '\0';
    char next[2 * PATH_MAX + 2];
    int w = snprintf(next, sizeof next, "%s/%s", target, *p);
    if (w < 0 || (size_t)w >= restlen || n == 0)
        return n == 0 ? -ENOENT : -ENAMETOOLONG;
    memcpy(rest, next, (size_t)w + 1);
    *p = rest;
    if (target[0] == '/')
        return to_root(at);
    return 0;
}

/* Into the directory name (made first when missing and mkdirs). */
static int enter(sb_path_at *at, const char *name)
{
    int fd = openat(at->dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ELOOP ? -EAGAIN : -errno; /* became a symlink since: look again */
    close(at->dirfd);
    at->dirfd = fd;
    return dir_push(at->dir, sizeof at->dir, name);
}

static int walk(const char *path, unsigned flags, sb_path_at *at, char *err, size_t errlen)
{
    char rest[2 * PATH_MAX + 2];
    char name[NAME_MAX + 1];
    int rc = 0, links = 0, retries = 0;
    if (snprintf(rest, sizeof rest, "%s", path) >= (int)sizeof rest)
        return -ENAMETOOLONG;
    const char *p = rest;
    while (next_name(&p, name, sizeof name, &rc)) {
        bool last = nothing_left(p);
        struct stat ls;
        if (fstatat(at->dirfd, name, &ls, AT_SYMLINK_NOFOLLOW) < 0) {
            if (errno != ENOENT)
                return -errno;
            if (last) /* a new file: this is where it goes */
                break;
            if (!(flags & SB_PATH_MKDIRS))
                return -ENOENT;
            if (mkdirat(at->dirfd, name, 0755) < 0 && errno != EEXIST)
                return -errno;
            p -= strlen(name); /* look at it again, now that it exists */
            continue;
        }
        if (S_ISLNK(ls.st_mode)) {
            if (++links > MAX_LINKS)
                return -ELOOP;
            if ((rc = follow(at, name, &ls, rest, sizeof rest, &p, path, err, errlen)) < 0)
                return rc;
            continue;
        }
        if (last)
            break;
        if (!S_ISDIR(ls.st_mode))
            return -ENOTDIR;
        rc = enter(at, name);
        if (rc == -EAGAIN && ++retries < MAX_LINKS) {
            p -= strlen(name);
            continue;
        }
        if (rc < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    snprintf(at->base, sizeof at->base, "%s", name);
    return 0;
}

int sb_path_resolve(const char *path, unsigned flags, sb_path_at *at, char *err, size_t errlen)
{
    at->dirfd = -1;
    at->base[0] = '\0';
    at->refused = false;
    int rc;
    if (!path[0]) {
        rc = -ENOENT;
    } else if (path[0] == '/') {
        rc = to_root(at);
    } else {
        at->dirfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        rc = at->dirfd < 0 ? -errno : 0;
        snprintf(at->dir, sizeof at->dir, ".");
    }
    if (rc == 0 && (rc = walk(path, flags, at, err, errlen)) == 0 && !at->base[0])
        snprintf(at->base, sizeof at->base, "."); /* "/": the root itself */
    if (rc == 0 && path[strlen(path) - 1] == '/') {
        /* "NAME/" names a directory: never a file to write */
        struct stat st;
        if (fstatat(at->dirfd, at->base, &st, AT_SYMLINK_NOFOLLOW) < 0)
            rc = errno == ENOENT ? -EISDIR : -errno;
        else
            rc = S_ISDIR(st.st_mode) ? -EISDIR : -ENOTDIR;
    }
    if (rc < 0) {
        if (!at->refused)
            snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        sb_path_at_close(at);
    }
    return rc;
}

void sb_path_at_close(sb_path_at *at)
{
    if (at->dirfd >= 0)
        close(at->dirfd);
    at->dirfd = -1;
}

int sb_open_resolved(const char *path, int flags, mode_t mode, int *fd, char *err, size_t errlen)
{
    sb_path_at at;
    int rc = sb_path_resolve(path, 0, &at, err, errlen);
    if (rc < 0)
        return rc;
    *fd = openat(at.dirfd, at.base, flags | O_NOFOLLOW | O_CLOEXEC, mode);
    rc = *fd < 0 ? -errno : 0;
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
    sb_path_at_close(&at);
    return rc;
}
