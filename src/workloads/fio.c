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
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "io/job.h"
#include "workloads/job_keys.h"
#include "workloads/workload.h"

static const sb_choice type_choices[] = {
    {"randread", "Random Read"},
    {"randwrite", "Random Write"},
    {"read", "Sequential Read"},
    {"write", "Sequential Write"},
    /* mixed reads and writes in rwmixread's proportion (a sweep's rw axis) */
    {"rw", "Sequential Read/Write"},
    {"randrw", "Random Read/Write"},
    {NULL, NULL},
};

static const sb_choice engine_choices[] = {
    {"posixaio", "POSIX AIO"},
    {"libaio", "Linux AIO"},
    {"io_uring", "IO_uring"},
    {"sync", "Sync"},
    {"psync", "PSync"},
    {"pvsync", "PVSync"},
    {"mmap", "Mmap"},
    {NULL, NULL},
};

static const sb_choice yesno[] = {
    {"no", "No"},
    {"yes", "Yes"},
    {NULL, NULL},
};

static const sb_choice bs_choices[] = {
    {"512", "512B"}, {"1k", "1KB"}, {"2k", "2KB"}, {"4k", "4KB"}, {"8k", "8KB"}, {"16k", "16KB"}, {"32k", "32KB"}, {"64k", "64KB"},
    {"128k", "128KB"}, {"256k", "256KB"}, {"512k", "512KB"}, {"1m", "1MB"}, {"2m", "2MB"},
    {"4m", "4MB"}, {"8m", "8MB"}, {"16m", "16MB"}, {NULL, NULL},
};

static const sb_choice target_choices[] = {
    {"default", "Default Test Directory"},
    {NULL, NULL},
};

static const sb_option fio_options[] = {
    {"type", "Type", "randwrite", NULL, type_choices, "random/sequential read/write", 0, .kind = SB_VAL_CHOICE},
    {"engine", "IO Engine", "posixaio", NULL, engine_choices, "I/O engine (posixaio as the seed profile)", 0, .kind = SB_VAL_CHOICE},
    {"buffered", "Buffered", "no", NULL, yesno, "buffered I/O (the opposite of direct)", 0, .kind = SB_VAL_BOOL},
    {"direct", "Direct", "yes", NULL, yesno, "O_DIRECT", 0, .kind = SB_VAL_CHOICE},
    {"bs", "Block Size", "4k", NULL, bs_choices, "block size", 0, .kind = SB_VAL_CHOICE},
    {"disk-target", "Disk Target", "default", NULL, target_choices,
     "the run directory under --target (the profile's only choice)", 0, .kind = SB_VAL_CHOICE},
    {"iodepth", "IO Depth", "64", NULL, NULL, "I/Os in flight (1 .. 65536)", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    /* --quick keeps the 1 GiB file: where the allocator puts the file decides what a
     * direct write on a virtual disk measures (a 256 MiB file landed elsewhere and wrote
     * sequentially at 31 MB/s against 59-64 for 1 GiB), and a write job's file is only
     * fallocated, so its size costs no time (docs/workloads.md, "The quick scale"). */
    {"size", "Size", "1g", NULL, NULL, "file size", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    {"startdelay", "Start Delay", "5", "0", NULL, "idle seconds before the job", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    {"ramp", "Ramp Time", "5", "1", NULL, "seconds of I/O before measuring", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    {"runtime", "Runtime", "20", "3", NULL, "measured seconds (time based)", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    {"numjobs", "Jobs", "1", NULL, NULL, "threads, one file each (1 .. 4096)", SB_OPT_HIDDEN, .kind = SB_VAL_IO},
    /* only a mixed Type reads it; shown when set, so a mix's chart says its proportion */
    {"rwmixread", "Read Mix", "50", NULL, NULL, "percent of reads in a mixed Type (rw, randrw)",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_IO},
    /* fio's steady-state options: the job stops early once settled (io/steadystate.h) */
    {"steadystate", "Steady State", "off", NULL, NULL,
     "stop when settled: iops|iops_slope|bw|bw_slope:LIMIT[%] (with ss_dur) or snia[:bw]",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_TEXT},
    {"ss_dur", "Steady State Window", "0", NULL, NULL, "fio's ss_dur: the window of 1 s samples",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_TEXT},
    {"ss_ramp", "Steady State Ramp", "0", NULL, NULL, "fio's ss_ramp: measured seconds before checking",
     SB_OPT_IF_CHANGED, .kind = SB_VAL_TEXT},
    {"ss_round", "SNIA Round", "60", NULL, NULL, "snia: seconds of a round", SB_OPT_IF_CHANGED, .kind = SB_VAL_TEXT},
};

static const sb_measure fio_measures[] = {
    {"Result: MB/s", "MB/s", SB_HIGHER_IS_BETTER},
};

/* The options that are I/O job options: this test's key, and the entry of the job's option
 * table (io/options.h) that parses it, so that a value means here what it means to
 * `storbench io` and an error names the key given. */
static const sb_job_key fio_job_keys[] = {
    {"type", "rw"}, {"engine", "ioengine"}, {"direct", "direct"}, {"bs", "bs"},
    {"iodepth", "iodepth"}, {"size", "size"}, {"startdelay", "startdelay"},
    {"ramp", "ramp_time"}, {"runtime", "runtime"}, {"numjobs", "numjobs"},
    {"rwmixread", "rwmixread"},
};

/* The steady-state options into job->steady (the job's time base is already checked). */
static int fio_steady(const sb_config *cfg, sb_io_job *job, char *err, size_t errlen)
{
    int rc;
    memset(&job->steady, 0, sizeof job->steady);
    if (!strcmp(sb_config_get(cfg, "steadystate"), "off"))
        return 0;
    static const sb_job_key keys[] = {
        {"steadystate", "steadystate"}, {"ss_dur", "ss_dur"}, {"ss_ramp", "ss_ramp"}, {"ss_round", "ss_round"},
    };
    if ((rc = sb_job_keys_set(job, cfg, keys, sizeof keys / sizeof keys[0], err, errlen)) < 0)
        return rc;
    if (job->steady.mode == SB_SS_SNIA)
        job->steady.dur_s = 0;
    char e[256];
    if (sb_ss_check(&job->steady, e, sizeof e) < 0) {
        snprintf(err, errlen, "fio: %s", e);
        return -EINVAL;
    }
    return 0; /* the job is time based: its runtime bounds the wait */
}

/* The options into the job (this test's params), once: each job key through its io option
 * entry, so that a bad value is refused, once, before anything runs. The job's directory is
 * "." here (the checks want one); run() puts the run's own directory in its copy. */
static int fio_resolve(const sb_config *cfg, void *params, char *err, size_t errlen)
{
    sb_io_job *job = params;
    sb_io_job_init(job);
    int rc;
    if ((rc = sb_job_keys_set(job, cfg, fio_job_keys, sizeof fio_job_keys / sizeof fio_job_keys[0], err,
                              errlen)) < 0 ||
        (rc = sb_config_check(cfg, err, errlen)) < 0)
        return rc;
    bool buffered = sb_config_yes(cfg, "buffered");
    if (buffered == job->direct) {
        snprintf(err, errlen, "fio: Buffered and Direct must differ (buffered=%s direct=%s)",
                 buffered ? "yes" : "no", job->direct ? "yes" : "no");
        return -EINVAL;
    }
    /* the profile's job is time based: a runtime of 0 would be one untimed pass */
    if (job->runtime_s <= 0) {
        snprintf(err, errlen, "fio: runtime must be more than 0 (the job is time based)");
        return -EINVAL;
    }
    job->time_based = true;
    if ((rc = fio_steady(cfg, job, err, errlen)) < 0)
        return rc;
    snprintf(job->directory, sizeof job->directory, ".");
    job->dir_private = true; /* the run's own directory (the runner made it) */
    return sb_job_keys_check(job, cfg, err, errlen);
}

static uint64_t fio_space_needed(const void *params)
{
    const sb_io_job *job = params;
    return job->size * job->numjobs;
}

static double fio_estimate(const void *params)
{
    const sb_io_job *job = params;
    return job->startdelay_s + job->ramp_s + job->runtime_s + (sb_rw_reads(job->rw) ? 5 : 0);
}

static bool stop_cb(void *arg) { return sb_ctx_interrupted(arg); }
static void progress_cb(void *arg, double f) { sb_ctx_progress(arg, f); }

/* What one run works on: the resolved job (in this run's directory, with its callbacks)
 * and its result; large, so on the heap. */
typedef struct fio_run_state {
    sb_io_job job;
    sb_io_result res;
} fio_run_state;

static int fio_run_in(sb_run_ctx *ctx, const void *params, sb_sample *samples, sb_io_job *job,
                      sb_io_result *res)
{
    *job = *(const sb_io_job *)params;
    snprintf(job->directory, sizeof job->directory, "%s", ctx->dir);
    int rc;
    job->seed += ctx->run_index;
    job->should_stop = stop_cb;
    job->progress = progress_cb;
    job->cb_arg = ctx;
    char err[400];
    rc = sb_io_run(job, res, err, sizeof err);
    if (rc < 0)
        return sb_ctx_fail(ctx, rc, "fio: %s", err);
    if (res->interrupted) {
        sb_io_result_free(res);
        return sb_ctx_fail(ctx, EINTR, "fio: interrupted");
    }
    sb_sample *s = &samples[0];
    double bw = sb_io_result_bw(res, -1);
    s->value = bw / 1024000.0;
    s->seconds = res->seconds;
    s->begin_ns = res->start_ns;
    s->end_ns = res->end_ns;
    s->cpu_busy_ns = res->cpu_busy_ns; /* the measured window's, when the lab asked (core/cpubusy.h) */
    s->cpu_window_ns = res->cpu_window_ns;
    s->valid = res->seconds > 0 && (res->dir[0].ios + res->dir[1].ios) > 0;
    sb_sample_add(s, "iops", "IOPS", sb_io_result_iops(res, -1));
    sb_sample_add(s, "bw", "B/s", bw);
    sb_sample_add(s, "bytes", "B", (double)(res->dir[0].bytes + res->dir[1].bytes));
    sb_sample_add(s, "seconds", "s", res->seconds);
    if (res->n_seconds) {
        /* steadiness: the slowest and fastest whole second of the run */
        double lo = res->iops[0], hi = res->iops[0];
        for (size_t i = 1; i < res->n_seconds; i++) {
            lo = res->iops[i] < lo ? res->iops[i] : lo;
            hi = res->iops[i] > hi ? res->iops[i] : hi;
        }
        sb_sample_add(s, "iops_1s_min", "IOPS", lo);
        sb_sample_add(s, "iops_1s_max", "IOPS", hi);
    }
    if (res->series)
        s->series = *res->series;
    if (job->steady.mode != SB_SS_OFF) {
        sb_ss_describe(&job->steady, s->steady, sizeof s->steady);
        s->steady_attained = res->steady.attained;
        s->steady_at_s = res->steady.attained_s;
    }
    sb_sample_add_latency(s, "lat", &res->clat_all);
    sb_io_result_free(res);
    if (!s->valid)
        return sb_ctx_fail(ctx, EIO, "fio: no I/O completed in the measured interval");
    return 0;
}

static int fio_run(sb_run_ctx *ctx, const void *params, sb_sample *samples)
{
    fio_run_state *st = sb_xcalloc(1, sizeof *st);
    int rc = fio_run_in(ctx, params, samples, &st->job, &st->res);
    free(st);
    return rc;
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
    .params_size = sizeof(sb_io_job),
    .resolve = fio_resolve,
    .space_needed = fio_space_needed,
    .estimate_seconds = fio_estimate,
    .run = fio_run,
};
