/*
 * dd — the wiki's simple baseline (seed 004): write a file of count blocks
 * of bs bytes with O_DIRECT, read it back with O_DIRECT, then read it through
 * the page cache. GNU dd's defaults from the wiki: bs=2048k count=512 (1 GiB).
 *
 * "Read cache" is meant to measure memory: after two direct passes nothing of
 * the file is cached, so a plain read would be a cold buffered disk read. The
 * file is therefore read once untimed through the cache first, and the
 * second, timed read is served from the page cache (docs/workloads.md).
 *
 * Zeros compress to nothing on btrfs compress=lzo and friends, so data=random
 * writes incompressible (pseudo-random) blocks instead; the option line
 * records which was used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/rand.h"
#include "core/timeseries.h"
#include "workloads/workload.h"

static const sb_choice data_choices[] = {
    {"zero", "Zeros"},
    {"random", "Random"},
    {NULL, NULL},
};

static const sb_option dd_options[] = {
    {"bs", "Block Size", "2048k", NULL, NULL, "bytes per read/write (dd bs=)", 0, .kind = SB_VAL_SIZE},
    {"count", "Count", "512", NULL, NULL, "number of blocks (dd count=)", 0, .kind = SB_VAL_UINT, .min = 1, .max = 1ull << 32},
    {"data", "Data", "zero", NULL, data_choices, "zero (/dev/zero, as dd) or random (incompressible)", 0, .kind = SB_VAL_CHOICE},
};

enum { M_WRITE, M_READ, M_CACHE };
static const sb_measure dd_measures[] = {
    [M_WRITE] = {"Test: Direct Write", "MB/s", SB_HIGHER_IS_BETTER},
    [M_READ] = {"Test: Direct Read", "MB/s", SB_HIGHER_IS_BETTER},
    [M_CACHE] = {"Test: Read Cache", "MB/s", SB_HIGHER_IS_BETTER},
};

typedef struct dd_params {
    uint64_t bs, count;
    bool random;
} dd_params;

static int dd_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    dd_params *p = params;
    int rc;
    if ((rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->bs = sb_config_u(cfg, "bs");
    if (p->bs < 512 || p->bs > (1ull << 30) || p->bs % 512) {
        snprintf(err, errlen, "dd: bs=%s must be a multiple of 512 bytes between 512 and 1G",
                 sb_config_get(cfg, "bs"));
        return -EINVAL;
    }
    p->count = sb_config_u(cfg, "count");
    p->random = !strcmp(sb_config_get(cfg, "data"), "random");
    return 0;
}

static uint64_t dd_space_needed(const void *params)
{
    const dd_params *p = params;
    return p->bs * p->count;
}

/* One block: with src_fd >= 0 (a write pass of data=zero) it is first read from
 * /dev/zero, as `dd if=/dev/zero` does: that copy is inside dd's timed interval (about
 * 28 ms per GiB here, 4 % of a 1.5 GB/s direct write), so it is inside storbench's too.
 * Returns 0 or a negative errno via ctx. */
static int dd_block(sb_run_ctx *ctx, int fd, int flags, int src_fd, const char *path, void *buf,
                    size_t bs)
{
    bool writing = (flags & O_ACCMODE) != O_RDONLY;
    if (sb_ctx_interrupted(ctx))
        return sb_ctx_fail(ctx, EINTR, "dd: interrupted");
    if (src_fd >= 0) {
        ssize_t z = read(src_fd, buf, bs);
        if (z != (ssize_t)bs) {
            int e = z < 0 ? errno : EIO;
            if (sb_ctx_interrupted(ctx))
                return sb_ctx_fail(ctx, EINTR, "dd: interrupted");
            return sb_ctx_fail(ctx, e, "dd: read /dev/zero: %s", z < 0 ? strerror(e) : "short read");
        }
    }
    size_t done = 0;
    while (done < bs) {
        ssize_t n = writing ? write(fd, (char *)buf + done, bs - done) : read(fd, (char *)buf + done, bs - done);
        if (n < 0 && errno == EINTR && !sb_ctx_interrupted(ctx))
            continue;
        if (n == 0)
            return sb_ctx_fail(ctx, EIO, "dd: read %s: file shorter than expected", path);
        if (n < 0) {
            int e = errno;
            if (e == EINVAL && (flags & O_DIRECT))
                return sb_ctx_fail(ctx, e, "dd: %s: O_DIRECT refused (bs not a multiple of the logical block size?)", path);
            return sb_ctx_fail(ctx, e, "dd: %s %s: %s", writing ? "write" : "read", path, strerror(e));
        }
        done += (size_t)n;
    }
    return 0;
}

/* One sequential pass over the file; fraction_base maps this pass onto the whole run for
 * the progress line. The interval runs from after the open to after the close, as dd's
 * (it starts its clock after opening both files and reads it after closing them).
 * Returns 0 or a negative errno via ctx. */
static int dd_pass(sb_run_ctx *ctx, const char *path, int flags, int src_fd, const dd_params *p,
                   void *buf, double fraction_base, sb_sample *out)
{
    int rc;
    if (out && (rc = sb_ctx_barrier(ctx)) < 0) /* under MPI: every rank's pass starts together */
        return rc;
    int fd = open(path, flags, 0644);
    if (fd < 0) {
        int e = errno;
        if (e == EINVAL && (flags & O_DIRECT))
            return sb_ctx_fail(ctx, e, "dd: %s: O_DIRECT refused by the filesystem", ctx->dir);
        return sb_ctx_fail(ctx, e, "dd: open %s: %s", path, strerror(e));
    }
    /* The time series (1 s intervals) of a timed pass: each block's time is its latency. */
    sb_histogram *lat = out ? malloc(sizeof *lat) : NULL;
    sb_tsb ts;
    uint64_t t0 = sb_now_ns(), tb = t0, moved = 0;
    bool series = lat && sb_tsb_init(&ts, t0, 1000000000ull) == 0;
    if (lat)
        sb_hist_init(lat);
    const sb_histogram *hl[1] = {lat};
    rc = 0;
    for (uint64_t i = 0; i < p->count && rc == 0; i++) {
        if ((rc = dd_block(ctx, fd, flags, src_fd, path, buf, p->bs)) < 0)
            break;
        if (series) {
            uint64_t now = sb_now_ns();
            if (sb_tsb_due(&ts, now))
                sb_tsb_close(&ts, now, hl, 1, moved);
            sb_hist_record(lat, now - tb);
            moved += p->bs;
            tb = now;
        }
        sb_ctx_progress(ctx, fraction_base + (double)(i + 1) / (double)p->count / 4);
    }
    if (close(fd) < 0 && rc == 0 && (flags & O_ACCMODE) != O_RDONLY) {
        int e = errno;
        rc = sb_ctx_fail(ctx, e, "dd: close %s: %s", path, strerror(e));
    }
    if (rc < 0) {
        if (series)
            sb_tsb_free(&ts);
        free(lat);
        return rc;
    }
    uint64_t t1 = sb_now_ns();
    double s = (double)(t1 - t0) / 1e9;
    if (series) {
        sb_tsb_finish(&ts, t1, hl, 1, moved);
        const sb_tsb *one = &ts;
        sb_tsb_collect(&one, 1, &out->series);
        sb_tsb_free(&ts);
    }
    free(lat);
    if (out) {
        double bytes = (double)(p->bs * p->count);
        out->value = s > 0 ? bytes / s / 1e6 : 0;
        out->seconds = s;
        out->begin_ns = t0;
        out->end_ns = t1;
        out->valid = s > 0;
        sb_sample_add(out, "bytes", "B", bytes);
        sb_sample_add(out, "seconds", "s", s);
    }
    return 0;
}

static int dd_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    const dd_params *p = params;
    int rc;
    void *buf;
    if (posix_memalign(&buf, 4096, p->bs))
        return sb_ctx_fail(ctx, ENOMEM, "dd: cannot allocate a %llu-byte buffer", (unsigned long long)p->bs);
    if (p->random) {
        sb_rand r;
        sb_rand_seed(&r, 0x5eed + ctx->run_index);
        sb_rand_fill(&r, buf, p->bs);
    } else {
        memset(buf, 0, p->bs);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/tstfile", ctx->dir);
    int zero_fd = -1; /* data=zero: copied from /dev/zero block by block, as dd does */
    if (!p->random && (zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0) {
        int e = errno;
        free(buf);
        return sb_ctx_fail(ctx, e, "dd: open /dev/zero: %s", strerror(e));
    }
    rc = dd_pass(ctx, path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, zero_fd, p, buf, 0,
                 &samples[M_WRITE]);
    if (zero_fd >= 0)
        close(zero_fd);
    if (!rc)
        rc = dd_pass(ctx, path, O_RDONLY | O_DIRECT | O_CLOEXEC, -1, p, buf, 0.25, &samples[M_READ]);
    if (!rc) /* untimed warm-up: bring the file into the page cache */
        rc = dd_pass(ctx, path, O_RDONLY | O_CLOEXEC, -1, p, buf, 0.5, NULL);
    if (!rc)
        rc = dd_pass(ctx, path, O_RDONLY | O_CLOEXEC, -1, p, buf, 0.75, &samples[M_CACHE]);
    unlink(path);
    free(buf);
    return rc;
}

const sb_workload sb_wl_dd = {
    .name = "dd",
    .title = "dd",
    .version = "1.0",
    .summary = "GNU dd baseline: O_DIRECT write, O_DIRECT read, cached read (seed 004)",
    .options = dd_options,
    .n_options = sizeof dd_options / sizeof dd_options[0],
    .measures = dd_measures,
    .n_measures = sizeof dd_measures / sizeof dd_measures[0],
    /* Not wall-clock timed: a throughput over a fixed byte count, nothing but the transfer
     * timed (docs/workloads.md, quick scale). */
    .flags = SB_WL_RANKS,
    .params_size = sizeof(dd_params),
    .resolve = dd_resolve,
    .space_needed = dd_space_needed,
    .run = dd_run,
};
