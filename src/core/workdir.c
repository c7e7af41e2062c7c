/*
 * workdir — see workdir.h. Registered directories live in a fixed table (no
 * allocation) so that the signal path can walk it.
 */
#include "core/workdir.h"
#include "core/ranks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MAX_REGISTERED 16
static char registered[MAX_REGISTERED][PATH_MAX];

int sb_target_check(const char *target)
{
    struct stat st;
    if (stat(target, &st) < 0)
        return -errno;
    if (!S_ISDIR(st.st_mode))
        return -ENOTDIR;
    if (access(target, W_OK | X_OK) < 0)
        return -errno;
    struct statvfs vfs;
    if (statvfs(target, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
        return -EROFS;
    return 0;
}

static void register_path(const char *path)
{
    for (int i = 0; i < MAX_REGISTERED; i++)
        if (!registered[i][0]) {
            snprintf(registered[i], PATH_MAX, "%s", path);
            return;
        }
}

static void unregister_path(const char *path)
{
    for (int i = 0; i < MAX_REGISTERED; i++)
        if (!strcmp(registered[i], path))
            registered[i][0] = 0;
}

int sb_workdir_remove_stale(const char *target)
{
    DIR *d = opendir(target);
    if (!d)
        return -errno;
    int removed = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (strncmp(n, "storbench-", 10))
            continue;
        char *end;
        long pid = strtol(n + 10, &end, 10);
        /* "storbench-<pid>-XXXXXX": exactly what sb_workdir_create makes. */
        if (pid <= 0 || end == n + 10 || *end != '-' || strlen(end + 1) != 6)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* its owner is alive (or not ours to ask): it is in use */
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", target, n) >= (int)sizeof path)
            continue;
        if (sb_remove_tree(path) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}

int sb_workdir_create(const char *target, char *out, size_t outlen)
{
    /* What a killed run (SIGKILL, power loss) left behind goes before anything new —
     * unless MPI ranks on other hosts share the target: their process ids mean nothing
     * here, and a live rank's directory would look stale. */
    if (sb_ranks()->hosts <= 1)
        sb_workdir_remove_stale(target);
    int n = snprintf(out, outlen, "%s/storbench-%ld-XXXXXX", target, (long)getpid());
    if (n < 0 || (size_t)n >= outlen)
        return -ENAMETOOLONG;
    if (!mkdtemp(out))
        return -errno;
    register_path(out);
    return 0;
}

/* Removes the contents of the directory open as dfd, then closes it. */
static int remove_contents(int dfd)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        int e = -errno;
        close(dfd);
        return e;
    }
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (unlinkat(dirfd(d), de->d_name, 0) == 0)
            continue;
        if (errno != EISDIR && errno != EPERM) {
            if (errno != ENOENT && !rc)
                rc = -errno;
            continue;
        }
        int sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
            if (!rc) rc = -errno;
            continue;
        }
        int r = remove_contents(sub);
        if (r && !rc)
            rc = r;
        if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0 && !rc)
            rc = -errno;
    }
    closedir(d);
    return rc;
}

int sb_remove_tree(const char *path)
{
    if (unlink(path) == 0)
        return 0;
    if (errno == ENOENT)
        return 0;
    if (errno != EISDIR && errno != EPERM)
        return -errno;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = remove_contents(fd);
    if (rmdir(path) < 0 && !rc)
        rc = -errno;
    return rc;
}

int sb_workdir_remove(const char *path)
{
    int rc = sb_remove_tree(path);
    unregister_path(path);
    return rc;
}

void sb_workdir_cleanup_all(void)
{
    for (int i = 0; i < MAX_REGISTERED; i++)
        if (registered[i][0]) {
            sb_remove_tree(registered[i]);
            registered[i][0] = 0;
        }
}

int sb_free_space(const char *path, uint64_t *bytes_free)
{
    struct statvfs vfs;
    if (statvfs(path, &vfs) < 0)
        return -errno;
    *bytes_free = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    return 0;
}
