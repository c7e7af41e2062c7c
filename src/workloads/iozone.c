/*
 * iozone — "IOzone" (3.405 profile): what the seed's command lines measure,
 * `iozone -e -r RECORD -s SIZE -i0` (Write Performance: the "write" column)
 * and `iozone -e -r RECORD -s SIZE -i0 -i1` (Read Performance: the "read"
 * column, the first read after write and rewrite), with IOzone's own order of
 * system calls, so that the figures agree with IOzone's (docs/fidelity.md,
 * "IOzone"):
 *
 *   write    unlink, creat(0640), close, open(O_RDWR), fsync; timed: RECORD
 *            write(2)s from one buffer, fsync (-e); then fsync, close
 *   rewrite  the same on the existing file, without unlink/creat
 *   read     open(O_RDONLY), fsync, one untimed read of a record and a seek
 *            back; timed: RECORD read(2)s, fsync (-e); then fsync, close
 *
 * The read finds the file as the write and rewrite left it: on a machine
 * with room in its page cache that is a page-cache read, as on the seed pages
 * (8 GB read at 6.8 GB/s). cache=cold drops the page cache before the read
 * (an explicit option, shown in the option line).
 *
 * The data is IOzone's buffer: zeros with one 8-byte pattern word per page
 * (compressible; a compressing filesystem stores little of it, as it did for
 * the seed's LZO figures). No record is timed on its own: IOzone reads the
 * clock only around the loop.
 *
 * Headline: IOzone's KiB/s / 1024, labelled "MB/s" as on the seed pages
 * (really MiB/s: bytes/s / 1,048,576).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cache.h"
#include "core/clock.h"
#include "workloads/fs_common.h"
#include "workloads/workload.h"

static const sb_choice record_choices[] = {
    {"4k", "4Kb"}, {"64k", "64Kb"}, {"1m", "1MB"}, {NULL, NULL},
};

static const sb_choice filesize_choices[] = {
    {"64m", "64MB"}, {"512m", "512MB"}, {"2g", "2GB"}, {"4g", "4GB"}, {"8g", "8GB"}, {NULL, NULL},
};

static const sb_choice test_choices[] = {
    {"write", "Write Performance"},
    {"read", "Read Performance"},
    {NULL, NULL},
};

static const sb_choice cache_choices[] = {
    {"warm", "As Written"},
    {"cold", "Dropped"},
    {NULL, NULL},
};

static const sb_option iozone_options[] = {
    {"record-size", "Record Size", "4k", NULL, record_choices, "bytes per read/write", 0, .kind = SB_VAL_SIZE},
    {"file-size", "File Size", "8g", "512m", filesize_choices, "size of the test file", 0, .kind = SB_VAL_SIZE},
    {"test", "Disk Test", "write", NULL, test_choices,
     "write (flush timed) or read (the first read after write and rewrite)", 0, .kind = SB_VAL_CHOICE},
    {"cache", "Read Cache", "warm", NULL, cache_choices,
     "read: the page cache as the writes left it (IOzone), or dropped first", SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
};

static const sb_measure iozone_measures[] = {
    {NULL, "MB/s", SB_HIGHER_IS_BETTER},
};

/* IOzone's default pattern byte 0xA5, as the 64-bit word it stores once per page. */
#define IOZ_PATTERN 0xA5A5A5A5A5A5A5A5ull

typedef struct ioz_params {
    uint64_t record, size;
    bool read_test, cold;
} ioz_params;

static int ioz_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    ioz_params *p = params;
    int rc;
    if ((rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->record = sb_config_u(cfg, "record-size");
    p->size = sb_config_u(cfg, "file-size");
    p->read_test = !strcmp(sb_config_get(cfg, "test"), "read");
    p->cold = !strcmp(sb_config_get(cfg, "cache"), "cold");
    if (p->cold && !p->read_test) {
        snprintf(err, errlen, "cache=cold applies to test=read only");
        return -EINVAL;
    }
    if (p->record > p->size) {
        snprintf(err, errlen, "record-size is larger than file-size");
        return -EINVAL;
    }
    return 0;
}

static uint64_t iozone_space_needed(const void *params)
{
    const ioz_params *p = params;
    return p->size;
}

static double iozone_estimate(const void *params)
{
    const ioz_params *p = params;
    /* a rough 200 MB/s disk: the read test writes the file twice first */
    return (double)p->size / 200e6 * (p->read_test ? 2.5 : 1);
}

enum ioz_kind { IOZ_WRITE, IOZ_REWRITE, IOZ_READ };
static const char *const kind_name[] = {"write", "rewrite", "read"};

/* One pass of the phases above: how iozone's write_perf_test / read_perf_test
 * go with -e and without -c. *seconds is the timed part. */
typedef struct ioz_pass {
    sb_run_ctx *ctx;
    const char *path;
    const ioz_params *p;
    char *buf;
    double base, span; /* share of the progress bar */
} ioz_pass;

static int pass_fail(ioz_pass *ps, enum ioz_kind k, const char *call, int e)
{
    return sb_ctx_fail(ps->ctx, e, "iozone: %s: %s (%s pass): %s", ps->path, call, kind_name[k],
                       strerror(e));
}

static int open_for(ioz_pass *ps, enum ioz_kind k, int *fdp)
{
    if (k == IOZ_WRITE) {
        /* a new file, as iozone's sanity check unlinks it and creat() makes it again */
        if (unlink(ps->path) < 0 && errno != ENOENT)
            return pass_fail(ps, k, "unlink", errno);
        int fd = creat(ps->path, 0640);
        if (fd < 0)
            return pass_fail(ps, k, "creat", errno);
        close(fd);
    }
    int fd = open(ps->path, k == IOZ_READ ? O_RDONLY : O_RDWR);
    if (fd < 0)
        return pass_fail(ps, k, "open", errno);
    *fdp = fd;
    return 0;
}

/* The records of one pass; 0 or a failure already in ctx->err. */
static int pass_loop(ioz_pass *ps, enum ioz_kind k, int fd)
{
    const uint64_t n = ps->p->size / ps->p->record;
    const size_t rec = (size_t)ps->p->record;
    /* Poll for Ctrl-C and move the progress bar every 16 MiB: cheap next to the I/O. */
    uint64_t every = (16u << 20) / rec;
    if (every == 0)
        every = 1;
    for (uint64_t i = 0; i < n; i++) {
        ssize_t got = k == IOZ_READ ? read(fd, ps->buf, rec) : write(fd, ps->buf, rec);
        if (got != (ssize_t)rec) {
            int e = got < 0 ? errno : EIO;
            /* A short write is how a filling disk first answers: writing the rest gets
             * the real cause (ENOSPC), which the one line must name, not EIO. */
            if (got >= 0 && k != IOZ_READ) {
                int r = sb_fs_write_all(fd, ps->buf + got, rec - (size_t)got, -1);
                if (r == 0)
                    continue;
                e = -r;
            }
            return pass_fail(ps, k, k == IOZ_READ ? "read" : "write", e);
        }
        if (i % every == every - 1) {
            if (sb_ctx_interrupted(ps->ctx))
                return sb_ctx_fail(ps->ctx, EINTR, "iozone: interrupted");
            sb_ctx_progress(ps->ctx, ps->base + ps->span * (double)(i + 1) / (double)n);
        }
    }
    return 0;
}

static int run_pass(ioz_pass *ps, enum ioz_kind k, double *seconds)
{
    int fd = -1, rc;
    if ((rc = open_for(ps, k, &fd)) < 0)
        return rc;
    if (fsync(fd) < 0) {
        rc = pass_fail(ps, k, "fsync", errno);
        goto out;
    }
    if (k == IOZ_READ) {
        /* iozone primes its caches with one untimed record, then seeks back */
        errno = 0;
        if (read(fd, ps->buf, (size_t)ps->p->record) != (ssize_t)ps->p->record ||
            lseek(fd, 0, SEEK_SET) != 0) {
            rc = pass_fail(ps, k, "read", errno ? errno : EIO);
            goto out;
        }
    }
    uint64_t t0 = sb_now_ns();
    if ((rc = pass_loop(ps, k, fd)) < 0)
        goto out;
    if (fsync(fd) < 0) { /* -e: the flush is inside the timing */
        rc = pass_fail(ps, k, "fsync", errno);
        goto out;
    }
    *seconds = (double)(sb_now_ns() - t0) / 1e9;
    if (fsync(fd) < 0) /* iozone's untimed flush before close */
        rc = pass_fail(ps, k, "fsync", errno);
out:
    close(fd);
    return rc;
}

/* cache=cold: the read starts from the device. Every cache when root, else this file's pages. */
static int drop_file_cache(ioz_pass *ps)
{
    if (ps->ctx->is_root && sb_drop_caches() == 0)
        return 0;
    int fd = open(ps->path, O_RDONLY);
    if (fd < 0)
        return pass_fail(ps, IOZ_READ, "open", errno);
    int rc = sb_evict_file(fd);
    close(fd);
    return rc < 0 ? pass_fail(ps, IOZ_READ, "dropping its cached pages", -rc) : 0;
}

static char *pattern_buffer(size_t len)
{
    void *buf;
    if (posix_memalign(&buf, 4096, len))
        return NULL;
    memset(buf, 0, len);
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    for (size_t off = 0; off + 8 <= len; off += (size_t)page)
        *(uint64_t *)((char *)buf + off) = IOZ_PATTERN;
    return buf;
}

static int iozone_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const ioz_params *p = params;
    int rc;
    char path[4096];
    snprintf(path, sizeof path, "%s/iozone.tmp", ctx->dir);
    ioz_pass ps = {ctx, path, p, pattern_buffer((size_t)p->record), 0, p->read_test ? 0.4 : 1};
    if (!ps.buf)
        return sb_ctx_fail(ctx, ENOMEM, "iozone: cannot allocate a %llu-byte record",
                           (unsigned long long)p->record);
    sync(); /* as iozone before its tests: nobody's dirty data is written in the timed part */
    double t_write = 0, t_rewrite = 0, t_read = 0;
    rc = run_pass(&ps, IOZ_WRITE, &t_write);
    if (rc == 0 && p->read_test) {
        ps.base = 0.4;
        rc = run_pass(&ps, IOZ_REWRITE, &t_rewrite);
        if (rc == 0 && p->cold)
            rc = drop_file_cache(&ps);
        ps.base = 0.8;
        ps.span = 0.2;
        if (rc == 0)
            rc = run_pass(&ps, IOZ_READ, &t_read);
    }
    free(ps.buf);
    unlink(path);
    if (rc < 0)
        return rc;
    double secs = p->read_test ? t_read : t_write;
    sb_sample *s = &samples[0];
    s->valid = secs > 0;
    if (!s->valid)
        return sb_ctx_fail(ctx, EIO, "iozone: nothing was measured");
    double bw = (double)p->size / secs;
    s->value = bw / 1048576.0;
    s->seconds = secs;
    sb_sample_add(s, "bw", "B/s", bw);
    sb_sample_add(s, "bytes", "B", (double)p->size);
    sb_sample_add(s, "seconds", "s", secs);
    if (p->read_test) {
        sb_sample_add(s, "write_bw", "B/s", (double)p->size / t_write);
        sb_sample_add(s, "rewrite_bw", "B/s", (double)p->size / t_rewrite);
    }
    return 0;
}

const sb_workload sb_wl_iozone = {
    .name = "iozone",
    .title = "IOzone",
    .version = "3.405",
    .summary = "sequential write (flush timed) or read after write and rewrite of a file in records",
    .options = iozone_options,
    .n_options = sizeof iozone_options / sizeof iozone_options[0],
    .measures = iozone_measures,
    .n_measures = 1,
    /* Not wall-clock timed: a throughput over a fixed byte count, as dd (docs/workloads.md). */
    .flags = 0,
    .params_size = sizeof(ioz_params),
    .resolve = ioz_resolve,
    .space_needed = iozone_space_needed,
    .estimate_seconds = iozone_estimate,
    .run = iozone_run,
};
