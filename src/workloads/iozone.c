/*
 * iozone — "IOzone" (3.405 profile): sequential write of a file in records
 * with the flush inside the timed interval (iozone -e), or the first
 * sequential read of such a file (not a re-read), buffered, with the engine's
 * sync engine (read/write, as iozone does).
 *
 * Read Performance writes the file first, untimed, then drops the page cache
 * (all of it when root, else the file's pages with POSIX_FADV_DONTNEED) so
 * that the read is a cold read of what was written.
 *
 * Headline: iozone's KiB/s / 1024, labelled "MB/s" as on the seed pages
 * (really MiB/s: bytes/s / 1,048,576).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/cache.h"
#include "io/job.h"
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

static const sb_option iozone_options[] = {
    {"record-size", "Record Size", "4k", NULL, record_choices, "bytes per read/write", 0},
    {"file-size", "File Size", "8g", "512m", filesize_choices, "size of the test file", 0},
    {"test", "Disk Test", "write", NULL, test_choices, "write (flush timed) or first read", 0},
};

static const sb_measure iozone_measures[] = {
    {NULL, "MB/s", SB_HIGHER_IS_BETTER},
};

static int iozone_job(const sb_config *cfg, const char *dir, sb_io_job *job, bool *read_test,
                      char *err, size_t errlen)
{
    sb_io_job_init(job);
    int rc;
    if ((rc = sb_config_size(cfg, "record-size", &job->bs, err, errlen)) < 0 ||
        (rc = sb_config_size(cfg, "file-size", &job->size, err, errlen)) < 0)
        return rc;
    *read_test = !strcmp(sb_config_get(cfg, "test"), "read");
    job->rw = SB_RW_WRITE;
    strcpy(job->engine, "sync");
    job->end_fsync = true;
    job->invalidate = false;
    snprintf(job->directory, sizeof job->directory, "%s", dir);
    char warn[256];
    return sb_io_job_check(job, err, errlen, warn, sizeof warn);
}

static int iozone_validate(const sb_config *cfg, char *err, size_t errlen)
{
    static sb_io_job job;
    bool rd;
    return iozone_job(cfg, ".", &job, &rd, err, errlen);
}

static uint64_t iozone_space_needed(const sb_config *cfg)
{
    static sb_io_job job;
    bool rd;
    char err[256];
    return iozone_job(cfg, ".", &job, &rd, err, sizeof err) < 0 ? 0 : job.size;
}

static double iozone_estimate(const sb_config *cfg)
{
    static sb_io_job job;
    bool rd;
    char err[256];
    if (iozone_job(cfg, ".", &job, &rd, err, sizeof err) < 0)
        return 0;
    /* a rough 200 MB/s disk */
    return (double)job.size / 200e6 * (rd ? 2 : 1);
}

typedef struct prog {
    sb_run_ctx *ctx;
    double base, span;
} prog;

static bool stop_cb(void *arg) { return sb_ctx_interrupted(((prog *)arg)->ctx); }
static void progress_cb(void *arg, double f)
{
    prog *p = arg;
    sb_ctx_progress(p->ctx, p->base + p->span * f);
}

static int iozone_run(sb_run_ctx *ctx, sb_sample *samples)
{
    static sb_io_job job;
    static sb_io_result res;
    bool read_test;
    int rc = iozone_job(ctx->cfg, ctx->dir, &job, &read_test, ctx->err, sizeof ctx->err);
    if (rc < 0)
        return rc;
    prog p = {ctx, 0, read_test ? 0.5 : 1};
    job.should_stop = stop_cb;
    job.progress = progress_cb;
    job.cb_arg = &p;
    job.keep_files = read_test;
    char err[400];
    rc = sb_io_run(&job, &res, err, sizeof err);
    if (rc < 0)
        return sb_ctx_fail(ctx, rc, "iozone: %s", err);
    if (res.interrupted) {
        sb_io_result_free(&res);
        return sb_ctx_fail(ctx, EINTR, "iozone: interrupted");
    }
    if (read_test) {
        sb_io_result_free(&res);
        /* The first read of the written file, from the device: every cache dropped
         * when root, else this file's pages (the worker's invalidate does that). */
        if (ctx->is_root)
            sb_drop_caches();
        job.rw = SB_RW_READ;
        job.end_fsync = false;
        job.invalidate = true;
        job.keep_files = false;
        p.base = 0.5;
        p.span = 0.5;
        rc = sb_io_run(&job, &res, err, sizeof err);
        if (rc < 0) {
            char path[sizeof job.directory + 32];
            snprintf(path, sizeof path, "%s/storbench-io.0", job.directory);
            unlink(path);
            return sb_ctx_fail(ctx, rc, "iozone: %s", err);
        }
        if (res.interrupted) {
            sb_io_result_free(&res);
            return sb_ctx_fail(ctx, EINTR, "iozone: interrupted");
        }
    }
    sb_sample *s = &samples[0];
    double bw = sb_io_result_bw(&res, -1);
    s->value = bw / 1048576.0;
    s->seconds = res.seconds;
    s->valid = res.seconds > 0;
    sb_sample_add(s, "bw", "B/s", bw);
    sb_sample_add(s, "bytes", "B", (double)(res.dir[0].bytes + res.dir[1].bytes));
    sb_sample_add(s, "seconds", "s", res.seconds);
    sb_sample_add_latency(s, "lat", &res.clat_all);
    sb_io_result_free(&res);
    if (!s->valid)
        return sb_ctx_fail(ctx, EIO, "iozone: nothing was measured");
    return 0;
}

const sb_workload sb_wl_iozone = {
    .name = "iozone",
    .title = "IOzone",
    .version = "3.405",
    .summary = "sequential write (flush timed) or first read of a file in records, buffered",
    .options = iozone_options,
    .n_options = sizeof iozone_options / sizeof iozone_options[0],
    .measures = iozone_measures,
    .n_measures = 1,
    /* Not wall-clock timed: a throughput over a fixed byte count, as dd (docs/workloads.md). */
    .flags = 0,
    .validate = iozone_validate,
    .space_needed = iozone_space_needed,
    .estimate_seconds = iozone_estimate,
    .run = iozone_run,
};
