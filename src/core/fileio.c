/*
 * fileio — whole small files in and out (see fileio.h). Buffers grow by
 * doubling; a limit keeps a wrong path (a device, /dev/zero) from eating
 * memory.
 */
#include "core/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sb_read_stream(FILE *f, size_t max, int truncate, char **out, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int rc = buf ? 0 : -ENOMEM;
    while (!rc) {
        if (n == cap) {
            if (cap >= max) {
                if (!truncate)
                    rc = -EFBIG;
                break;
            }
            size_t ncap = cap * 2 > max ? max : cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                rc = -ENOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) {
            if (ferror(f))
                rc = errno ? -errno : -EIO;
            break;
        }
    }
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *out = buf;
    if (len)
        *len = n;
    return 0;
}

int sb_read_file(const char *path, size_t max, int truncate, char **out, size_t *len)
{
    FILE *f = fopen(path, "rbe");
    if (!f)
        return -errno;
    int rc = sb_read_stream(f, max, truncate, out, len);
    fclose(f);
    return rc;
}

int sb_read_text(const char *path, char *out, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, out, len - 1);
    int e = errno;
    close(fd);
    if (n < 0)
        return -e;
    out[n] = 0;
    while (n > 0 && isspace((unsigned char)out[n - 1]))
        out[--n] = 0;
    return 0;
}

int sb_write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t w = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    return w < 0 ? -e : 0;
}

int sb_pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
    const char *p = buf;
    while (n) {
        ssize_t k = pwrite(fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? -errno : -EIO;
        p += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

int sb_pread_all(int fd, void *buf, size_t n, uint64_t off)
{
    char *p = buf;
    while (n) {
        ssize_t k = pread(fd, p, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? -errno : -ENODATA;
        p += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}
