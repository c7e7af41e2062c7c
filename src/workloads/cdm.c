/*
 * cdm (the test "diskmark") — the four figures of CrystalDiskMark and KDiskMark, each read and
 * write, on storbench's I/O engine: sequential 1 MiB at queue depth 8 and 1,
 * random 4 KiB at queue depth 32 and 1, one thread, direct I/O, a 1 GiB file,
 * 5 loops of 5 s each with 5 s pauses between them (KDiskMark's defaults),
 * the loops' MB/s (10^6 bytes/s, as those tools print) averaged.
 *
 * One run of a selection is the whole KDiskMark procedure for one cell of the
 * table: the file is made once (laid out with data for a read, allocated for
 * a write), then measured loops times. IOPS and the p99 completion latency
 * (over every I/O of every loop) are secondary figures; the run's time
 * series is the loops' back to back. The `cdm` suite is the eight cells;
 * `run` prints them as the 4x2 table those tools show (report/cdm_table.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strutil.h"
#include "io/job.h"
#include "workloads/job_keys.h"
#include "workloads/workload.h"

static const sb_choice test_choices[] = {
    {"seq1m-q8t1", "SEQ1M Q8T1"},
    {"seq1m-q1t1", "SEQ1M Q1T1"},
    {"rnd4k-q32t1", "RND4K Q32T1"},
    {"rnd4k-q1t1", "RND4K Q1T1"},
    {NULL, NULL},
};

static const sb_choice mode_choices[] = {
    {"read", "Read"},
    {"write", "Write"},
    {NULL, NULL},
};

static const sb_choice engine_choices[] = {
    {"libaio", "Linux AIO"},
    {"io_uring", "IO_uring"},
    {"posixaio", "POSIX AIO"},
    {NULL, NULL},
};

static const sb_option cdm_options[] = {
    {"test", "Test", "seq1m-q8t1", NULL, test_choices, "block size, queue depth and threads", 0, .kind = SB_VAL_CHOICE},
    {"mode", "Mode", "read", NULL, mode_choices, "read or write", 0, .kind = SB_VAL_CHOICE},
    {"engine", "IO Engine", "libaio", NULL, engine_choices,
     "I/O engine (libaio, as KDiskMark on Linux)", SB_OPT_IF_CHANGED, .kind = SB_VAL_CHOICE},
    {"size", "File Size", "1g", "128m", NULL, "test file size", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    {"loops", "Loops", "5", "2", NULL, "measurements averaged per run", SB_OPT_HIDDEN, .kind = SB_VAL_UINT, .min = 1, .max = 100},
    {"measure", "Measure Time", "5", "1", NULL, "seconds of each loop", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    {"interval", "Interval", "5", "0", NULL, "idle seconds between loops", SB_OPT_HIDDEN, .kind = SB_VAL_DURATION},
};

static const sb_measure cdm_measures[] = {
    {NULL, "MB/s", SB_HIGHER_IS_BETTER},
};

typedef struct cdm_params {
    sb_io_job job;
    unsigned loops;
    double interval_s;
} cdm_params;

/* The options into the job and the loops, once: the job keys through their io option
 * entries, so that a bad value is refused, once, before anything runs. The file is
 * ./cdm.dat here (the checks want one); run() names it in the run's directory. */
static int cdm_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    cdm_params *p = params;
    sb_io_job *job = &p->job;
    sb_io_job_init(job);
    const char *test = sb_config_get(cfg, "test");
    bool seq = !strncmp(test, "seq", 3), wr = !strcmp(sb_config_get(cfg, "mode"), "write");
    job->rw = seq ? (wr ? SB_RW_WRITE : SB_RW_READ) : (wr ? SB_RW_RANDWRITE : SB_RW_RANDREAD);
    job->bs = seq ? 1u << 20 : 4096;
    job->iodepth = !strcmp(test, "seq1m-q8t1") ? 8 : !strcmp(test, "rnd4k-q32t1") ? 32 : 1;
    job->numjobs = 1;
    job->direct = true;
    job->time_based = true;
    /* the options that are I/O job options parse through the job's option table
     * (io/options.h); the error names this test's key */
    static const sb_job_key keys[] = {{"engine", "ioengine"}, {"size", "size"}, {"measure", "runtime"}};
    int rc;
    if ((rc = sb_job_keys_set(job, cfg, keys, sizeof keys / sizeof keys[0], err, errlen)) < 0 ||
        (rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    p->interval_s = sb_config_seconds(cfg, "interval");
    p->loops = (unsigned)sb_config_u(cfg, "loops");
    if (job->runtime_s <= 0) {
        snprintf(err, errlen, "diskmark: measure must be a positive duration");
        return -EINVAL;
    }
    snprintf(job->filename, sizeof job->filename, "./cdm.dat");
    return sb_job_keys_check(job, cfg, err, errlen);
}

static uint64_t cdm_space_needed(const void *params)
{
    const cdm_params *p = params;
    return p->job.size;
}

static double cdm_estimate(const void *params)
{
    const cdm_params *p = params;
    return p->loops * p->job.runtime_s + (p->loops - 1) * p->interval_s + 2;
}

typedef struct cdm_progress {
    sb_run_ctx *ctx;
    unsigned loop, loops;
} cdm_progress;

static bool stop_cb(void *arg) { return sb_ctx_interrupted(((cdm_progress *)arg)->ctx); }
static void progress_cb(void *arg, double f)
{
    cdm_progress *cp = arg;
    sb_ctx_progress(cp->ctx, ((double)cp->loop + f) / (double)cp->loops);
}

/* The pause between loops, in steps short enough for Ctrl-C. */
static void pause_for(sb_run_ctx *ctx, double s)
{
    for (double left = s; left > 0 && !sb_ctx_interrupted(ctx); left -= 0.1) {
        struct timespec ts = {0, (long)((left < 0.1 ? left : 0.1) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

/* Appends a loop's series to the run's, shifted by the time measured before it. */
static void append_series(sb_series *dst, const sb_series *src, double offset)
{
    for (size_t i = 0; src && i < src->n; i++) {
        sb_series_point p = src->p[i];
        p.t += offset;
        sb_series_add(dst, &p);
    }
}

/* What one run works on: the resolved job (its file in this run's directory, its
 * callbacks) and one loop's result; large, so on the heap. */
typedef struct cdm_run_state {
    cdm_params p;
    sb_io_result res;
} cdm_run_state;

static int cdm_run_in(sb_run_ctx *ctx, const void *params, sb_sample *samples, cdm_params *p,
                      sb_io_result *res)
{
    *p = *(const cdm_params *)params;
    snprintf(p->job.filename, sizeof p->job.filename, "%s/cdm.dat", ctx->dir);
    int rc;
    cdm_progress cp = {ctx, 0, p->loops};
    p->job.seed += ctx->run_index;
    p->job.should_stop = stop_cb;
    p->job.progress = progress_cb;
    p->job.cb_arg = &cp;
    sb_histogram *lat = malloc(sizeof *lat);
    if (!lat)
        return sb_ctx_fail(ctx, ENOMEM, "diskmark: out of memory");
    sb_hist_init(lat);
    sb_sample *s = &samples[0];
    sb_series_init(&s->series, 1);
    double mbps = 0, iops = 0, seconds = 0;
    char err[400];
    for (cp.loop = 0; cp.loop < p->loops; cp.loop++) {
        if (cp.loop && p->interval_s > 0)
            pause_for(ctx, p->interval_s);
        rc = sb_io_run(&p->job, res, err, sizeof err);
        if (rc == 0 && res->interrupted)
            rc = -EINTR, snprintf(err, sizeof err, "interrupted");
        if (rc == 0 && res->dir[0].ios + res->dir[1].ios == 0)
            rc = -EIO, snprintf(err, sizeof err, "no I/O completed in a loop");
        if (rc < 0) {
            if (rc != -EINTR || res->interrupted)
                sb_io_result_free(res);
            free(lat);
            return sb_ctx_fail(ctx, rc, "diskmark: %s", err);
        }
        mbps += sb_io_result_bw(res, -1) / 1e6;
        iops += sb_io_result_iops(res, -1);
        sb_hist_merge(lat, &res->clat_all);
        append_series(&s->series, res->series, seconds);
        seconds += res->seconds;
        sb_io_result_free(res);
    }
    s->value = mbps / p->loops;
    s->seconds = seconds;
    s->valid = true;
    sb_sample_add(s, "iops", "IOPS", iops / p->loops);
    sb_sample_add(s, "loops", "", p->loops);
    sb_sample_add_latency(s, "lat", lat);
    free(lat);
    return 0;
}

static int cdm_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    cdm_run_state *st = sb_xcalloc(1, sizeof *st);
    int rc = cdm_run_in(ctx, params, samples, &st->p, &st->res);
    free(st);
    return rc;
}

const sb_workload sb_wl_cdm = {
    .name = "diskmark",
    .title = "CrystalDiskMark set",
    .version = "KDiskMark 3.1",
    .summary = "CrystalDiskMark/KDiskMark's SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1 (direct, 1 GiB, 5 loops averaged)",
    .options = cdm_options,
    .n_options = sizeof cdm_options / sizeof cdm_options[0],
    .measures = cdm_measures,
    .n_measures = 1,
    .flags = 0,
    .params_size = sizeof(cdm_params),
    .resolve = cdm_resolve,
    .space_needed = cdm_space_needed,
    .estimate_seconds = cdm_estimate,
    .run = cdm_run,
};
