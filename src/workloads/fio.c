/*
 * fio — "Flexible IO Tester": the seed profile's fio job (fio 2.1.13 profile)
 * run natively by storbench's I/O engine (src/io). One job, one file in the
 * run directory: rw from Type, ioengine from IO Engine, bs from Block Size,
 * iodepth 64, size 1 GiB, startdelay 5 s, ramp 5 s, runtime 20 s, time based.
 *
 * Headline: the profile's "MB/s", which is fio's KiB/s divided by 1000, i.e.
 * bytes/s / 1,024,000 (neither MB/s nor MiB/s; kept so that figures line up
 * with the seed pages). IOPS, bandwidth in bytes/s and completion latency
 * percentiles are stored as secondary figures. The hidden options (iodepth,
 * size, timing) do not appear in the option line, which therefore matches the
 * seed pages' line and lets imported and new figures share a result.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/engine.h"
#include "io/job.h"
#include "workloads/workload.h"

static const sb_choice type_choices[] = {
    {"randread", "Random Read"},
    {"randwrite", "Random Write"},
    {"read", "Sequential Read"},
    {"write", "Sequential Write"},
    {NULL, NULL},
};

static const sb_choice engine_choices[] = {
    {"posixaio", "POSIX AIO"},
    {"libaio", "Linux AIO"},
    {"io_uring", "IO_uring"},
    {"sync", "Sync"},
    {"psync", "PSync"},
    {NULL, NULL},
};

static const sb_choice yesno[] = {
    {"no", "No"},
    {"yes", "Yes"},
    {NULL, NULL},
};

static const sb_choice bs_choices[] = {
    {"4k", "4KB"}, {"8k", "8KB"}, {"16k", "16KB"}, {"32k", "32KB"}, {"64k", "64KB"},
    {"128k", "128KB"}, {"256k", "256KB"}, {"512k", "512KB"}, {"1m", "1MB"}, {"2m", "2MB"},
    {"4m", "4MB"}, {"8m", "8MB"}, {NULL, NULL},
};

static const sb_choice target_choices[] = {
    {"default", "Default Test Directory"},
    {NULL, NULL},
};

static const sb_option fio_options[] = {
    {"type", "Type", "randwrite", NULL, type_choices, "random/sequential read/write", 0},
    {"engine", "IO Engine", "posixaio", NULL, engine_choices, "I/O engine (posixaio as the seed profile)", 0},
    {"buffered", "Buffered", "no", NULL, yesno, "buffered I/O (the opposite of direct)", 0},
    {"direct", "Direct", "yes", NULL, yesno, "O_DIRECT", 0},
    {"bs", "Block Size", "4k", NULL, bs_choices, "block size", 0},
    {"disk-target", "Disk Target", "default", NULL, target_choices,
     "the run directory under --target (the profile's only choice)", 0},
    {"iodepth", "IO Depth", "64", NULL, NULL, "I/Os in flight (1 .. 1024)", SB_OPT_HIDDEN},
    /* --quick keeps the 1 GiB file: where the allocator puts the file decides what a
     * direct write on a virtual disk measures (a 256 MiB file landed elsewhere and wrote
     * sequentially at 31 MB/s against 59-64 for 1 GiB), and a write job's file is only
     * fallocated, so its size costs no time (docs/workloads.md, "The quick scale"). */
    {"size", "Size", "1g", NULL, NULL, "file size", SB_OPT_HIDDEN},
    {"startdelay", "Start Delay", "5", "0", NULL, "idle seconds before the job", SB_OPT_HIDDEN},
    {"ramp", "Ramp Time", "5", "1", NULL, "seconds of I/O before measuring", SB_OPT_HIDDEN},
    {"runtime", "Runtime", "20", "3", NULL, "measured seconds (time based)", SB_OPT_HIDDEN},
    {"numjobs", "Jobs", "1", NULL, NULL, "threads, one file each", SB_OPT_HIDDEN},
    /* fio's steady-state options: the job stops early once settled (io/steadystate.h) */
    {"steadystate", "Steady State", "off", NULL, NULL,
     "stop when settled: iops|iops_slope|bw|bw_slope:LIMIT[%] (with ss-dur) or snia[:bw]",
     SB_OPT_IF_CHANGED},
    {"ss-dur", "Steady State Window", "0", NULL, NULL, "fio's ss_dur: the window of 1 s samples",
     SB_OPT_IF_CHANGED},
    {"ss-ramp", "Steady State Ramp", "0", NULL, NULL, "fio's ss_ramp: measured seconds before checking",
     SB_OPT_IF_CHANGED},
    {"ss-round", "SNIA Round", "60", NULL, NULL, "snia: seconds of a round", SB_OPT_IF_CHANGED},
};

static const sb_measure fio_measures[] = {
    {"Result: MB/s", "MB/s", SB_HIGHER_IS_BETTER},
};

/* The steady-state options into job->steady; a criterion needs a runtime to bound it. */
static int fio_steady(const sb_config *cfg, sb_io_job *job, char *err, size_t errlen)
{
    const char *crit = sb_config_get(cfg, "steadystate");
    int rc;
    memset(&job->steady, 0, sizeof job->steady);
    if (!strcmp(crit, "off"))
        return 0;
    char e[256];
    if (sb_ss_parse(crit, &job->steady, e, sizeof e) < 0) {
        snprintf(err, errlen, "fio: steadystate: %s", e + strlen("--steadystate: "));
        return -EINVAL;
    }
    if ((rc = sb_config_duration(cfg, "ss-dur", &job->steady.dur_s, err, errlen)) < 0 ||
        (rc = sb_config_duration(cfg, "ss-ramp", &job->steady.ramp_s, err, errlen)) < 0 ||
        (rc = sb_config_duration(cfg, "ss-round", &job->steady.round_s, err, errlen)) < 0)
        return rc;
    if (job->steady.mode == SB_SS_SNIA)
        job->steady.dur_s = 0;
    if (sb_ss_check(&job->steady, e, sizeof e) < 0) {
        snprintf(err, errlen, "fio: %s", e + 2);
        return -EINVAL;
    }
    if (!job->time_based) {
        snprintf(err, errlen, "fio: steadystate needs a runtime (the job's limit)");
        return -EINVAL;
    }
    return 0;
}

static int fio_resolve(const sb_config *cfg, const char *dir, sb_io_job *job, char *err, size_t errlen)
{
    sb_io_job_init(job);
    int rc, buffered, direct;
    uint64_t v;
    if ((rc = sb_rw_parse(sb_config_get(cfg, "type"), &job->rw)) < 0) {
        snprintf(err, errlen, "fio: unknown type '%s'", sb_config_get(cfg, "type"));
        return rc;
    }
    snprintf(job->engine, sizeof job->engine, "%s", sb_config_get(cfg, "engine"));
    if ((rc = sb_config_bool(cfg, "buffered", &buffered, err, errlen)) < 0 ||
        (rc = sb_config_bool(cfg, "direct", &direct, err, errlen)) < 0)
        return rc;
    if (buffered == direct) {
        snprintf(err, errlen, "fio: Buffered and Direct must differ (buffered=%s direct=%s)",
                 buffered ? "yes" : "no", direct ? "yes" : "no");
        return -EINVAL;
    }
    job->direct = direct;
    if ((rc = sb_config_size(cfg, "bs", &job->bs, err, errlen)) < 0 ||
        (rc = sb_config_size(cfg, "size", &job->size, err, errlen)) < 0 ||
        (rc = sb_config_duration(cfg, "startdelay", &job->startdelay_s, err, errlen)) < 0 ||
        (rc = sb_config_duration(cfg, "ramp", &job->ramp_s, err, errlen)) < 0 ||
        (rc = sb_config_duration(cfg, "runtime", &job->runtime_s, err, errlen)) < 0)
        return rc;
    if ((rc = sb_config_uint(cfg, "iodepth", 1, SB_IO_MAX_DEPTH, &v, err, errlen)) < 0)
        return rc;
    job->iodepth = (unsigned)v;
    if ((rc = sb_config_uint(cfg, "numjobs", 1, 64, &v, err, errlen)) < 0)
        return rc;
    job->numjobs = (unsigned)v;
    job->time_based = job->runtime_s > 0;
    if ((rc = fio_steady(cfg, job, err, errlen)) < 0)
        return rc;
    snprintf(job->directory, sizeof job->directory, "%s", dir);
    job->dir_private = true; /* the run's own directory (the runner made it) */
    char warn[256];
    if ((rc = sb_io_job_check(job, err, errlen, warn, sizeof warn)) < 0)
        return rc;
    return sb_engine_check_works(sb_engine_find(job->engine), "fio: ", err, errlen);
}

static int fio_validate(const sb_config *cfg, char *err, size_t errlen)
{
    static sb_io_job job;
    return fio_resolve(cfg, ".", &job, err, errlen);
}

static uint64_t fio_space_needed(const sb_config *cfg)
{
    static sb_io_job job;
    char err[256];
    return fio_resolve(cfg, ".", &job, err, sizeof err) < 0 ? 0 : job.size * job.numjobs;
}

static double fio_estimate(const sb_config *cfg)
{
    static sb_io_job job;
    char err[256];
    if (fio_resolve(cfg, ".", &job, err, sizeof err) < 0)
        return 0;
    return job.startdelay_s + job.ramp_s + job.runtime_s + (sb_rw_reads(job.rw) ? 5 : 0);
}

static bool stop_cb(void *arg) { return sb_ctx_interrupted(arg); }
static void progress_cb(void *arg, double f) { sb_ctx_progress(arg, f); }

static int fio_run(sb_run_ctx *ctx, sb_sample *samples)
{
    static sb_io_job job;
    static sb_io_result res;
    int rc = fio_resolve(ctx->cfg, ctx->dir, &job, ctx->err, sizeof ctx->err);
    if (rc < 0)
        return rc;
    job.seed += ctx->run_index;
    job.should_stop = stop_cb;
    job.progress = progress_cb;
    job.cb_arg = ctx;
    char err[400];
    rc = sb_io_run(&job, &res, err, sizeof err);
    if (rc < 0)
        return sb_ctx_fail(ctx, rc, "fio: %s", err);
    if (res.interrupted) {
        sb_io_result_free(&res);
        return sb_ctx_fail(ctx, EINTR, "fio: interrupted");
    }
    sb_sample *s = &samples[0];
    double bw = sb_io_result_bw(&res, -1);
    s->value = bw / 1024000.0;
    s->seconds = res.seconds;
    s->begin_ns = res.start_ns;
    s->end_ns = res.end_ns;
    s->valid = res.seconds > 0 && (res.dir[0].ios + res.dir[1].ios) > 0;
    sb_sample_add(s, "iops", "IOPS", sb_io_result_iops(&res, -1));
    sb_sample_add(s, "bw", "B/s", bw);
    sb_sample_add(s, "bytes", "B", (double)(res.dir[0].bytes + res.dir[1].bytes));
    sb_sample_add(s, "seconds", "s", res.seconds);
    if (res.n_seconds) {
        /* steadiness: the slowest and fastest whole second of the run */
        double lo = res.iops[0], hi = res.iops[0];
        for (size_t i = 1; i < res.n_seconds; i++) {
            lo = res.iops[i] < lo ? res.iops[i] : lo;
            hi = res.iops[i] > hi ? res.iops[i] : hi;
        }
        sb_sample_add(s, "iops_1s_min", "IOPS", lo);
        sb_sample_add(s, "iops_1s_max", "IOPS", hi);
    }
    if (res.series)
        s->series = *res.series;
    if (job.steady.mode != SB_SS_OFF) {
        sb_ss_describe(&job.steady, s->steady, sizeof s->steady);
        s->steady_attained = res.steady.attained;
        s->steady_at_s = res.steady.attained_s;
    }
    sb_sample_add_latency(s, "lat", &res.clat_all);
    sb_io_result_free(&res);
    if (!s->valid)
        return sb_ctx_fail(ctx, EIO, "fio: no I/O completed in the measured interval");
    return 0;
}

const sb_workload sb_wl_fio = {
    .name = "fio",
    .title = "Flexible IO Tester",
    .version = "2.1.13",
    .summary = "fio-class job (seed profile: posixaio, QD64, 1 GiB, 20 s time based) on the native engine",
    .options = fio_options,
    .n_options = sizeof fio_options / sizeof fio_options[0],
    .measures = fio_measures,
    .n_measures = 1,
    .flags = SB_WL_RANKS,
    /* Two quick runs: its runs are time based and steady (SD 1-4 % here), and its 1 GiB
     * random-write file, written in 4 KiB pieces, takes seconds to remove on a disk. */
    .quick_runs = 2,
    .validate = fio_validate,
    .space_needed = fio_space_needed,
    .estimate_seconds = fio_estimate,
    .run = fio_run,
};
