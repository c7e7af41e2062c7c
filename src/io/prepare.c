/*
 * prepare — the files of an I/O job before its threads start: creating or extending
 * each file (laid out with data when the job reads or verifies, else allocated),
 * the free-space and short-file checks, block devices, and opening for the run with
 * O_DIRECT and its alignment (the logical block size of the storage) checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/fileio.h"
#include "core/rand.h"
#include "io/worker.h"

/* Logical block size (the O_DIRECT alignment) of the storage under fd. */
static unsigned direct_alignment(int fd, const struct stat *st)
{
#ifdef STATX_DIOALIGN
    struct statx sx;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        sx.stx_dio_offset_align)
        return sx.stx_dio_offset_align;
#endif
    if (S_ISBLK(st->st_mode)) {
        int ss;
        if (ioctl(fd, BLKSSZGET, &ss) == 0 && ss > 0)
            return (unsigned)ss;
    }
    char path[128];
    unsigned maj = major(st->st_dev), min = minor(st->st_dev);
    const char *fmt[] = {"/sys/dev/block/%u:%u/queue/logical_block_size",
                         "/sys/dev/block/%u:%u/../queue/logical_block_size"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, fmt[i], maj, min);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned v = 0;
        int ok = fscanf(f, "%u", &v);
        fclose(f);
        if (ok == 1 && v)
            return v;
    }
    return 512;
}

static int layout_file(int fd, uint64_t from, uint64_t to, uint64_t seed, bool pattern,
                       char *err, size_t errlen, const char *path)
{
    const size_t chunk = 1u << 20;
    char *buf = malloc(chunk);
    if (!buf)
        return -ENOMEM;
    sb_rand r;
    sb_rand_seed(&r, seed ^ 0x1a7017ull);
    for (uint64_t off = from; off < to;) {
        size_t n = to - off < chunk ? (size_t)(to - off) : chunk;
        if (pattern)
            sb_io_pattern_fill(buf, off, (uint32_t)n, seed);
        else
            sb_rand_fill(&r, buf, n);
        int e = sb_pwrite_all(fd, buf, n, off);
        if (e < 0) {
            free(buf);
            snprintf(err, errlen, "%s: laying out the file: %s", path, strerror(-e));
            return e;
        }
        off += n;
    }
    free(buf);
    if (fdatasync(fd) < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: fdatasync: %s", path, strerror(e));
        return -e;
    }
    return 0;
}

static int write_all(int fd, const char *buf, size_t n, uint64_t off, const char *path,
                     char *err, size_t errlen)
{
    int r = sb_pwrite_all(fd, buf, n, off);
    if (r < 0)
        snprintf(err, errlen, "%s: laying out the file: %s", path, strerror(-r));
    return r;
}

/* verify: the whole blocks of the job's region from `have` on are laid out as
 * layout blocks (sequence 0), so that a read of a block this run has not written
 * is checked too; what lies around them gets random data as usual. */
static int layout_verified(int fd, const sb_io_job *job, uint64_t have, uint64_t need,
                           uint64_t *known_from, char *err, size_t errlen, const char *path)
{
    const uint64_t bs = job->bs, nb = job->size / bs;
    uint64_t k0 = have <= job->offset ? 0 : (have - job->offset + bs - 1) / bs;
    if (k0 >= nb)
        return layout_file(fd, have, need, job->seed, false, err, errlen, path);
    uint64_t from = job->offset + k0 * bs, to = job->offset + nb * bs;
    int r = 0;
    if (have < from && (r = layout_file(fd, have, from, job->seed, false, err, errlen, path)) < 0)
        return r;
    uint64_t per = bs >= (1u << 20) ? 1 : (1u << 20) / bs;
    sb_verify_fmt fmt;
    char *buf = NULL;
    if (sb_verify_fmt_init(&fmt, job->verify, (uint32_t)bs, job->seed) < 0 ||
        posix_memalign((void **)&buf, 4096, per * bs)) {
        sb_verify_fmt_free(&fmt);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (uint64_t k = k0; k < nb && r == 0; k += per) {
        uint64_t n = nb - k < per ? nb - k : per;
        for (uint64_t i = 0; i < n; i++)
            sb_verify_format(&fmt, buf + i * bs, job->offset + (k + i) * bs, 0, 0);
        r = write_all(fd, buf, (size_t)(n * bs), job->offset + k * bs, path, err, errlen);
    }
    free(buf);
    sb_verify_fmt_free(&fmt);
    if (r == 0)
        r = layout_file(fd, to, need, job->seed, false, err, errlen, path);
    if (r == 0)
        *known_from = from;
    return r;
}

/* Creates/extends/checks one file so that [0, offset+size) exists. */
int sb_io_prepare_file(const sb_io_job *job, file_ctx *f, char *err, size_t errlen)
{
    uint64_t need = job->offset + job->size;
    struct stat st;
    bool exists = stat(f->path, &st) == 0;
    f->known_from = UINT64_MAX;
    if (job->verify_only && !exists) {
        snprintf(err, errlen, "%s does not exist: verify_only checks a file an earlier run wrote", f->path);
        return -ENOENT;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is a directory", f->path);
        return -EISDIR;
    }
    bool reads = sb_rw_reads(job->rw) || job->verify_only;
    if (exists && S_ISBLK(st.st_mode)) {
        int fd = open(f->path, reads && !sb_rw_writes(job->rw) ? O_RDONLY : O_RDWR);
        if (fd < 0) {
            int e = errno;
            snprintf(err, errlen, "%s: %s", f->path, strerror(e));
            return -e;
        }
        uint64_t bytes = 0;
        ioctl(fd, BLKGETSIZE64, &bytes);
        close(fd);
        if (bytes < need) {
            snprintf(err, errlen, "%s holds %" PRIu64 " bytes, less than offset + size = %" PRIu64,
                     f->path, bytes, need);
            return -ENOSPC;
        }
        f->fd = -1;
        return 0;
    }
    if (exists && reads && (uint64_t)st.st_size < need) {
        snprintf(err, errlen, "%s is %" PRIu64 " bytes, shorter than offset + size = %" PRIu64
                 " needed by a read job", f->path, (uint64_t)st.st_size, need);
        return -EINVAL;
    }
    uint64_t have = exists ? (uint64_t)st.st_size : 0;
    if (have < need) {
        char dir[sizeof f->path];
        snprintf(dir, sizeof dir, "%s", f->path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *(slash == dir ? slash + 1 : slash) = '\0';
        else
            strcpy(dir, ".");
        struct statvfs vfs;
        if (statvfs(dir, &vfs) == 0) {
            uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
            if (need - have > avail) {
                snprintf(err, errlen, "%s: size %" PRIu64 " bytes does not fit: %" PRIu64
                         " bytes needed, %" PRIu64 " free", f->path, need, need - have, avail);
                return -ENOSPC;
            }
        }
    }
    int fd = open(f->path, O_RDWR | O_CREAT, 0644);
    if (fd < 0 && errno == EACCES && reads && !sb_rw_writes(job->rw) && exists)
        fd = open(f->path, O_RDONLY);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", f->path, strerror(e));
        return -e;
    }
    f->created = !exists;
    f->fd = fd;
    if (have < need) {
        int r;
        if ((reads || job->verify_pattern) && job->verify) {
            r = layout_verified(fd, job, have, need, &f->known_from, err, errlen, f->path);
        } else if (reads || job->verify_pattern) {
            /* a read must find data on the medium, as fio's layout writes it */
            r = layout_file(fd, have, need, job->seed, job->verify_pattern, err, errlen, f->path);
        } else {
            r = fallocate(fd, 0, 0, (off_t)need) < 0 ? -errno : 0;
            if (r == -EOPNOTSUPP || r == -ENOSYS)
                r = ftruncate(fd, (off_t)need) < 0 ? -errno : 0;
            if (r < 0)
                snprintf(err, errlen, "%s: allocating %" PRIu64 " bytes: %s", f->path, need, strerror(-r));
        }
        if (r < 0)
            return r;
    }
    return 0;
}

int sb_io_open_for_io(const sb_io_job *job, const char *path, int *fdp, char *err, size_t errlen)
{
    int flags = sb_rw_writes(job->rw) ? O_RDWR : O_RDONLY;
    if (job->direct)
        flags |= O_DIRECT;
    int fd = open(path, flags);
    if (fd < 0) {
        int e = errno;
        if (e == EINVAL && job->direct) {
            snprintf(err, errlen, "%s: O_DIRECT refused by the filesystem (try buffered I/O)", path);
            return -EOPNOTSUPP;
        }
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (job->direct) {
        struct stat st;
        fstat(fd, &st);
        unsigned align = direct_alignment(fd, &st);
        if (job->bs % align || job->offset % align) {
            snprintf(err, errlen, "%s: %s %" PRIu64 " is not a multiple of the logical block size %u "
                     "(direct I/O)", path, job->bs % align ? "bs" : "offset",
                     job->bs % align ? job->bs : job->offset, align);
            close(fd);
            return -EINVAL;
        }
    }
    *fdp = fd;
    return 0;
}
