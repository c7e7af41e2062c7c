/*
 * fs_common — see fs_common.h. Nothing here times anything: the workloads
 * wrap these calls in their own clocks.
 */
#include "workloads/fs_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_fs_write_all(int fd, const void *buf, size_t len, off_t off)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = off >= 0 ? pwrite(fd, p, len, off) : write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (n == 0)
            return -EIO;
        p += n;
        len -= (size_t)n;
        if (off >= 0)
            off += n;
    }
    return 0;
}

int sb_fs_read_all(int fd, void *buf, size_t len, off_t off, size_t *got)
{
    char *p = buf;
    size_t done = 0;
    while (done < len) {
        ssize_t n = off >= 0 ? pread(fd, p + done, len - done, off + (off_t)done)
                             : read(fd, p + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (got)
                *got = done;
            return -errno;
        }
        if (n == 0)
            break;
        done += (size_t)n;
    }
    if (got)
        *got = done;
    return 0;
}

void sb_fs_random_name(sb_rand *r, char *name, size_t len)
{
    static const char alphabet[] =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (size_t i = 0; i < len; i++)
        name[i] = alphabet[sb_rand_below(r, sizeof alphabet - 1)];
    name[len] = '\0';
}

/* Depth-first removal relative to an open directory, so that deep trees do not
 * build long paths; the path is rebuilt only for the error message. */
static int empty_at(int dfd, const char *path, char *failed, size_t failedlen)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        int e = -errno;
        close(dfd);
        if (failed)
            snprintf(failed, failedlen, "%s", path);
        return e;
    }
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        int is_dir = de->d_type == DT_DIR;
        if (de->d_type == DT_UNKNOWN) {
            struct stat st;
            if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                is_dir = S_ISDIR(st.st_mode);
        }
        if (is_dir) {
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            int cfd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
            int r = cfd < 0 ? -errno : empty_at(cfd, sub, failed, failedlen);
            if (r == 0 && unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) != 0)
                r = -errno;
            if (r < 0 && rc == 0) {
                rc = r;
                if (failed && cfd < 0)
                    snprintf(failed, failedlen, "%s", sub);
            }
        } else if (unlinkat(dirfd(d), de->d_name, 0) != 0 && rc == 0) {
            rc = -errno;
            if (failed)
                snprintf(failed, failedlen, "%s/%s", path, de->d_name);
        }
    }
    closedir(d);
    return rc;
}

int sb_fs_empty_dir(const char *dir, char *failed, size_t failedlen)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        if (failed)
            snprintf(failed, failedlen, "%s", dir);
        return -errno;
    }
    return empty_at(fd, dir, failed, failedlen);
}
