/*
 * io_output — `storbench io`'s report (io_output.h): the formats table, the collector
 * that keeps each job's blocks as it ends (their figures summed by io/report/aggregate.h,
 * laid out here as fio's report blocks, formats/fio_report.h), storbench's own JSON
 * (storbench-json, docs/io-json.md) and storbench's own lines (CPU per I/O, verify, time
 * series, steady state, MPI ranks), and the writing at the end: to standard output, or
 * replacing --output FILE only once complete (core/atomicfile.h: a user-named path under
 * the protected-symlink rule). Nothing here computes a figure: sums, merges and the
 * disks' differences are io/report/'s and sysinfo/diskstats.h's.
 */
#include "cli/io_output.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli/io_series.h"
#include "core/atomicfile.h"
#include "core/cpuset.h"
#include "core/safepath.h"
#include "core/strutil.h"
#include "core/units.h"
#include "formats/fio_report.h"
#include "io/engine.h"
#include "io/report/aggregate.h"
#include "sysinfo/diskstats.h"

/* ------------------------------------------------------------ the formats */

static const struct {
    const char *name;
    unsigned bit;
} formats[] = {
    {"normal", SB_IOF_NORMAL},
    {"text", SB_IOF_NORMAL}, /* the name storbench took before fio's formats */
    {"json", SB_IOF_JSON},
    {"json+", SB_IOF_JSONPLUS},
    {"terse", SB_IOF_TERSE},
    {"storbench-json", SB_IOF_STORBENCH_JSON},
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

const char *sb_io_out_format_names(void)
{
    return "normal | json | json+ | terse | storbench-json";
}

int sb_io_out_formats(const char *list, unsigned *mask, char *err, size_t errlen)
{
    char buf[256];
    *mask = 0;
    if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf) {
        snprintf(err, errlen, "--output-format: too long");
        return -EINVAL;
    }
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t i = 0;
        while (i < N_FORMATS && strcmp(formats[i].name, t))
            i++;
        if (i == N_FORMATS) {
            snprintf(err, errlen, "--output-format: '%s' is none of %s", t, sb_io_out_format_names());
            return -EINVAL;
        }
        *mask |= formats[i].bit;
    }
    if (!*mask) {
        snprintf(err, errlen, "--output-format: name a format (%s)", sb_io_out_format_names());
        return -EINVAL;
    }
    return 0;
}

/* ------------------------------------------------------------ storbench's JSON */

static json_t *dir_json(const sb_io_result *r, int d, uint64_t ios, uint64_t bytes, const sb_histogram *h)
{
    json_t *o = json_object();
    json_object_set_new(o, "ios", json_integer((json_int_t)ios));
    json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
    json_object_set_new(o, "iops", json_real(sb_io_result_iops(r, d)));
    json_object_set_new(o, "bw_bytes_per_s", json_real(sb_io_result_bw(r, d)));
    json_object_set_new(o, "lat_ns", sb_io_lat_json(h));
    return o;
}

/* The tool's own cost (job.h): CPU time of the process while the job's threads ran. */
static json_t *cpu_json(const sb_io_result *r)
{
    json_t *o = json_object();
    double n = r->cpu_ios ? (double)r->cpu_ios : 1;
    json_object_set_new(o, "user_s", json_real(r->cpu_user_s));
    json_object_set_new(o, "sys_s", json_real(r->cpu_sys_s));
    json_object_set_new(o, "wall_s", json_real(r->cpu_wall_s));
    json_object_set_new(o, "ios", json_integer((json_int_t)r->cpu_ios));
    json_object_set_new(o, "user_ns_per_io", json_real(r->cpu_ios ? r->cpu_user_s * 1e9 / n : 0));
    json_object_set_new(o, "sys_ns_per_io", json_real(r->cpu_ios ? r->cpu_sys_s * 1e9 / n : 0));
    json_object_set_new(o, "user_pct", json_real(r->cpu_wall_s > 0 ? 100 * r->cpu_user_s / r->cpu_wall_s : 0));
    json_object_set_new(o, "sys_pct", json_real(r->cpu_wall_s > 0 ? 100 * r->cpu_sys_s / r->cpu_wall_s : 0));
    return o;
}

static json_t *verify_json(const sb_io_job *job, const sb_io_result *r)
{
    const sb_verify_stats *v = &r->verify;
    json_t *o = json_object();
    json_object_set_new(o, "algorithm", json_string(sb_verify_algo_name(job->verify)));
    json_object_set_new(o, "blocks_checked", json_integer((json_int_t)v->blocks_checked));
    json_object_set_new(o, "bytes_checked", json_integer((json_int_t)v->bytes_checked));
    json_object_set_new(o, "errors", json_integer((json_int_t)v->errors));
    json_object_set_new(o, "first_bad_offset_bytes",
                        v->errors ? json_integer((json_int_t)v->first_bad_offset) : json_null());
    json_object_set_new(o, "writes_moved", json_integer((json_int_t)v->writes_moved));
    json_object_set_new(o, "reads_unchecked", json_integer((json_int_t)v->reads_unchecked));
    json_object_set_new(o, "blocks_trimmed", json_integer((json_int_t)v->blocks_trimmed));
    json_object_set_new(o, "trimmed_checked", json_integer((json_int_t)v->trimmed_checked));
    return o;
}

static json_t *job_json(const sb_io_job *job, const sb_io_result *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "rw", json_string(sb_rw_name(job->rw)));
    json_object_set_new(j, "ioengine", json_string(r->engine));
    if (sb_engine_can(r->engine, SB_ENGINE_REGISTERS)) {
        /* as ran: by default each is used when the kernel accepts it */
        json_object_set_new(j, "registerfiles", json_boolean(r->uring_fixed_files));
        json_object_set_new(j, "fixedbufs", json_boolean(r->uring_fixed_bufs));
    }
    json_object_set_new(j, "bs_bytes", json_integer((json_int_t)job->bs));
    json_object_set_new(j, "size_bytes", json_integer((json_int_t)job->size));
    json_object_set_new(j, "offset_bytes", json_integer((json_int_t)job->offset));
    json_object_set_new(j, "iodepth", json_integer(job->iodepth));
    json_object_set_new(j, "effective_iodepth", json_integer(r->effective_iodepth));
    {
        /* the batching that ran: defaults resolved, clamped to the depth as the worker does */
        unsigned d = r->effective_iodepth, b = job->batch_submit ? job->batch_submit : 1;
        unsigned cmin = job->batch_complete_min ? job->batch_complete_min : 1;
        unsigned cmax = job->batch_complete_max ? job->batch_complete_max : cmin;
        json_object_set_new(j, "iodepth_batch_submit", json_integer(b < d ? b : d));
        json_object_set_new(j, "iodepth_batch_complete_min", json_integer(cmin < d ? cmin : d));
        json_object_set_new(j, "iodepth_batch_complete_max", json_integer(cmax < d ? cmax : d));
    }
    json_object_set_new(j, "numjobs", json_integer(job->numjobs));
    json_object_set_new(j, "direct", json_boolean(job->direct));
    json_object_set_new(j, "runtime_s", json_real(job->runtime_s));
    json_object_set_new(j, "time_based", json_boolean(job->time_based));
    json_object_set_new(j, "ramp_time_s", json_real(job->ramp_s));
    json_object_set_new(j, "startdelay_s", json_real(job->startdelay_s));
    json_object_set_new(j, "rwmixread_pct", json_integer(job->rwmixread));
    json_object_set_new(j, "fsync_every", json_integer(job->fsync_every));
    json_object_set_new(j, "end_fsync", json_boolean(job->end_fsync));
    json_object_set_new(j, "norandommap", json_boolean(job->norandommap));
    json_object_set_new(j, "randseed", json_integer((json_int_t)job->seed));
    if (job->cpus_allowed_set) {
        char list[256];
        sb_cpuset_format(&job->cpus_allowed, list, sizeof list);
        json_object_set_new(j, "cpus_allowed", json_string(list));
        json_object_set_new(j, "cpus_allowed_policy", json_string(job->cpus_split ? "split" : "shared"));
    }
    json_object_set_new(j, job->filename[0] ? "filename" : "directory",
                        json_string(job->filename[0] ? job->filename : job->directory));
    if (job->verify) {
        json_object_set_new(j, "verify", json_string(sb_verify_algo_name(job->verify)));
        json_object_set_new(j, "do_verify", json_boolean(job->do_verify));
        json_object_set_new(j, "verify_backlog", json_integer(job->verify_backlog));
        json_object_set_new(j, "verify_only", json_boolean(job->verify_only));
    }
    return j;
}

json_t *sb_io_storbench_json(const sb_io_job *job, const sb_io_result *r)
{
    json_t *root = json_object();
    json_object_set_new(root, "storbench_version", json_string(STORBENCH_VERSION));
    json_object_set_new(root, "format_version", json_integer(1));
    json_object_set_new(root, "job", job_json(job, r));
    json_object_set_new(root, "elapsed_s", json_real(r->seconds));
    json_object_set_new(root, "interrupted", json_boolean(r->interrupted));
    json_object_set_new(root, "read", dir_json(r, SB_DDIR_READ, r->dir[0].ios, r->dir[0].bytes, &r->dir[0].clat));
    json_object_set_new(root, "write", dir_json(r, SB_DDIR_WRITE, r->dir[1].ios, r->dir[1].bytes, &r->dir[1].clat));
    json_object_set_new(root, "total", dir_json(r, -1, r->dir[0].ios + r->dir[1].ios,
                                                r->dir[0].bytes + r->dir[1].bytes, &r->clat_all));
    json_t *ps = json_object(), *bw = json_array(), *iops = json_array();
    for (size_t i = 0; i < r->n_seconds; i++) {
        json_array_append_new(bw, json_real(r->bw_bytes_per_s[i]));
        json_array_append_new(iops, json_real(r->iops[i]));
    }
    json_object_set_new(ps, "bw_bytes_per_s", bw);
    json_object_set_new(ps, "iops", iops);
    json_object_set_new(root, "per_second", ps);
    json_object_set_new(root, "cpu", cpu_json(r));
    if (job->verify)
        json_object_set_new(root, "verify", verify_json(job, r));
    json_object_set_new(root, "series", sb_io_series_json(r));
    json_t *ss = sb_io_steady_json(r);
    if (ss)
        json_object_set_new(root, "steadystate", ss);
    return root;
}

/* What storbench adds to fio's job object, under "storbench": its own figures. */
static json_t *extra_json(const sb_io_job *job, const sb_io_result *r, const sb_io_ranks_report *ranks)
{
    json_t *o = json_object();
    json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
    json_object_set_new(o, "cpu", cpu_json(r));
    if (job->verify)
        json_object_set_new(o, "verify", verify_json(job, r));
    json_t *ss = sb_io_steady_json(r);
    if (ss)
        json_object_set_new(o, "steadystate", ss);
    if (ranks)
        json_object_set_new(o, "ranks", sb_io_ranks_json(ranks));
    return o;
}

/* storbench's own lines under a job's block in the normal output. */
static void extra_text(FILE *out, const sb_io_job *job, const sb_io_result *r,
                       const sb_io_ranks_report *ranks)
{
    if (r->interrupted)
        fputs("  storbench: interrupted; the figures are those measured until then\n", out);
    if (!job->disable_bw) /* disable_bw_measurement: no bandwidth over time either */
        sb_io_print_series(out, r);
    sb_io_print_steady(out, r);
    if (r->cpu_ios)
        fprintf(out, "  cpu: user=%.2fs, sys=%.2fs; per I/O: user=%.0f ns, sys=%.0f ns (%" PRIu64
                " I/Os, ramp included)\n", r->cpu_user_s, r->cpu_sys_s, r->cpu_user_s * 1e9 / (double)r->cpu_ios,
                r->cpu_sys_s * 1e9 / (double)r->cpu_ios, r->cpu_ios);
    if (job->verify) {
        const sb_verify_stats *v = &r->verify;
        char by[32];
        sb_format_iec(by, sizeof by, (double)v->bytes_checked, "B");
        fprintf(out, "  verify (%s): %" PRIu64 " blocks (%s) checked, %" PRIu64 " errors",
                sb_verify_algo_name(job->verify), v->blocks_checked, by, v->errors);
        if (v->errors)
            fprintf(out, ", first at offset %" PRIu64, v->first_bad_offset);
        fprintf(out, "; %" PRIu64 " writes moved off a busy block, %" PRIu64 " reads unchecked",
                v->writes_moved, v->reads_unchecked);
        if (v->blocks_trimmed) /* trim_percentage */
            fprintf(out, "; %" PRIu64 " blocks trimmed, %" PRIu64 " read back as zeros", v->blocks_trimmed,
                    v->trimmed_checked);
        fputc('\n', out);
    }
    if (ranks)
        sb_io_ranks_print(out, ranks);
}

/* ------------------------------------------------------------ the collector */

#define MAX_OPTS 128
#define MAX_DISKS 16

/* One report block: the figures summed (io/report/aggregate.h) and what fio's writers
 * need beside them (the job's description, its options as given, storbench's lines). */
typedef struct block {
    sb_io_agg *agg;
    sb_fio_job j;            /* the description; the figures are agg's, laid in at writing */
    sb_jobfile_given given;
    sb_fio_opt opts[MAX_OPTS];
    char rw[16], engine[32];
    double pct[SB_IO_MAX_PERCENTILES];
    char *extra;             /* storbench's lines (normal) */
    json_t *xjson;           /* storbench's keys (json) */
    sb_fio_prio prios[SB_IO_AGG_NDIR][SB_CMDPRIO_MAX_PRIOS];
} block;

struct sb_io_out {
    unsigned formats;
    int terse_version;      /* fio's --terse-version (0: 3) */
    bool to_file, several;
    char path[PATH_MAX];
    sb_jobfile_given global;
    sb_fio_opt gopts[MAX_OPTS];
    size_t n_gopts;
    block **b;
    size_t n, cap;
    json_t *sbjobs;          /* storbench-json: one object per job */
    sb_diskstat disk[MAX_DISKS];
    size_t n_disks;
    uint64_t t0_ns;
    struct rusage ru0;
    /* --status-interval: a report of the figures so far takes the blocks from floor on
     * (the jobs still running) and drops them after; to a file, its text is kept in
     * status (written before the final report) */
    size_t floor, sb_floor;
    char *status;
    size_t status_len;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static size_t opts_of(const sb_jobfile_given *g, sb_fio_opt *o)
{
    size_t n = 0;
    for (size_t i = 0; i < g->len && n < MAX_OPTS;) {
        o[n].key = g->buf + i;
        i += strlen(g->buf + i) + 1;
        o[n++].value = g->buf + i;
        i += strlen(g->buf + i) + 1;
    }
    return n;
}

/* The output path is checked before anything runs: its directory is there and it is no
 * directory itself (the write at the end goes through core/atomicfile). */
static int check_path(const char *path, char *err, size_t errlen)
{
    sb_path_at at;
    int r = sb_path_resolve(path, 0, &at, err, errlen);
    if (r < 0)
        return r;
    struct stat st;
    if (fstatat(at.dirfd, at.base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory", path);
        r = -EISDIR;
    }
    sb_path_at_close(&at);
    return r;
}

sb_io_out *sb_io_out_begin(unsigned formats, const char *path, const sb_jobfile_given *global,
                           bool several, char *err, size_t errlen)
{
    sb_io_out *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    o->formats = formats;
    o->several = several;
    if (path && strcmp(path, "-")) {
        char why[PATH_MAX + 256];
        if (check_path(path, why, sizeof why) < 0) {
            snprintf(err, errlen, "--output: %s", why);
            free(o);
            return NULL;
        }
        o->to_file = true;
        snprintf(o->path, sizeof o->path, "%s", path);
    }
    if (global) {
        o->global = *global;
        o->n_gopts = opts_of(&o->global, o->gopts);
    }
    o->sbjobs = json_array();
    o->t0_ns = now_ns();
    getrusage(RUSAGE_SELF, &o->ru0);
    return o;
}

void sb_io_out_terse_version(sb_io_out *o, int version)
{
    o->terse_version = version;
}

static void watch_path(sb_io_out *o, const char *target)
{
    sb_diskstat d;
    if (o->n_disks == MAX_DISKS || sb_diskstat_for_path(target, &d) < 0)
        return; /* no block device under it (tmpfs): fio has no disk_util for it either */
    for (size_t i = 0; i < o->n_disks; i++)
        if (!strcmp(o->disk[i].name, d.name))
            return;
    o->disk[o->n_disks++] = d;
}

void sb_io_out_watch(sb_io_out *o, const sb_io_job *job)
{
    if (!job->disk_util) /* fio's disk_util=0: this job's disks are not reported */
        return;
    if (!job->filename[0]) {
        watch_path(o, job->directory);
        return;
    }
    /* every file of fio's a:b list (the names one after the other, each ending in NUL) */
    for (const char *f = job->filename; *f && f < job->filename + sizeof job->filename; f += strlen(f) + 1)
        watch_path(o, f);
}

void sb_io_out_phase(sb_io_out *o)
{
    getrusage(RUSAGE_SELF, &o->ru0);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        sb_oom();
    return p;
}

/* A block for one job, or one thread t of it (t < 0: the whole job): what its header
 * and options say; the figures are the aggregate's. */
static block *new_block(const sb_io_job *job, const sb_io_result *r, sb_io_agg *agg,
                        const sb_jobfile_given *given)
{
    block *b = xcalloc(1, sizeof *b);
    sb_fio_job *j = &b->j;
    b->agg = agg;
    snprintf(j->name, sizeof j->name, "%s", job->name[0] ? job->name : "storbench io");
    j->pid = (long)getpid();
    snprintf(b->rw, sizeof b->rw, "%s", sb_rw_name(job->rw));
    snprintf(b->engine, sizeof b->engine, "%s", r->engine);
    j->rw = b->rw;
    j->engine = b->engine;
    j->bs_min = job->bs;
    j->bs_max = job->bssplit.n ? job->bssplit.bs[job->bssplit.n - 1] : job->bs_max > job->bs ? job->bs_max : job->bs;
    j->iodepth = r->effective_iodepth;
    memcpy(b->pct, job->percentiles, sizeof b->pct);
    j->percentiles = b->pct;
    j->n_percentiles = job->n_percentiles;
    j->clat_percentiles = job->clat_percentiles;
    j->slat_percentiles = job->slat_percentiles;
    j->lat_percentiles = job->lat_percentiles;
    j->unified = job->unified_rw; /* fio's reporting options, as the writers read them */
    j->sig_figs = job->sig_figs;
    j->bits = job->unit_base == 1;
    j->no_lat = job->disable_lat;
    j->no_clat = job->disable_clat;
    j->no_slat = job->disable_slat;
    if (given) {
        b->given = *given;
        j->n_opts = opts_of(&b->given, b->opts);
        j->opts = b->opts;
        j->desc = b->given.description[0] ? b->given.description : NULL;
    }
    /* fio's latency target line: target, window, percentile, the depth its search ended at */
    j->latency_target_ns = (uint64_t)(job->latency_target_s * 1e9 + 0.5);
    j->latency_window_us = (uint64_t)(job->latency_window_s * 1e6 + 0.5);
    j->latency_percentile = job->latency_percentile;
    j->latency_depth = r->latency_depth ? r->latency_depth : j->iodepth;
    return b;
}

_Static_assert(SB_IO_AGG_NDIR == SB_FIO_NDIRS, "a block's directions are the report's");

/* The block as fio's writers read it: its description with the aggregate's figures. */
static sb_fio_job fio_job_of(block *b)
{
    sb_fio_job j = b->j;
    const sb_io_agg *a = b->agg;
    j.groupid = a->groupid;
    j.jobs = a->jobs;
    j.error = a->error;
    j.runtime_s = a->runtime_s;
    j.elapsed_s = a->elapsed_s;
    for (int d = 0; d < SB_IO_AGG_NDIR; d++) { /* the same four as SB_FIO_NDIRS */
        const sb_io_agg_dir *ad = &a->dir[d];
        sb_fio_dir *fd = &j.dir[d];
        fd->ios = ad->ios;
        fd->bytes = ad->bytes;
        fd->runtime_s = ad->runtime_s;
        fd->clat = ad->clat;
        fd->slat = ad->slat;
        fd->lat = ad->lat;
        fd->bw_samples = ad->bw;
        fd->iops_samples = ad->iops;
        fd->n_samples = ad->n_samples;
        fd->n_iops_samples = ad->n_iops_samples;
        for (unsigned i = 0; i < ad->n_prios; i++)
            b->prios[d][i] = (sb_fio_prio){ad->prios[i].cls, ad->prios[i].level, ad->prios[i].clat};
        fd->prios = ad->n_prios ? b->prios[d] : NULL;
        fd->n_prios = ad->n_prios;
    }
    j.lat_all = a->all;
    j.usr_pct = a->usr_pct;
    j.sys_pct = a->sys_pct;
    j.ctx = a->ctx;
    j.majf = a->majf;
    j.minf = a->minf;
    j.depth_known = a->depth_known;
    memcpy(j.depth_level, a->depth_level, sizeof j.depth_level);
    memcpy(j.depth_submit, a->depth_submit, sizeof j.depth_submit);
    memcpy(j.depth_complete, a->depth_complete, sizeof j.depth_complete);
    j.no_syncs = a->no_syncs;
    j.sync_lat = a->sync_lat;
    j.sync_ios = a->sync_ios;
    j.zone_resets = a->zone_resets;
    j.continue_on_error = a->continue_on_error;
    j.total_err = a->total_err;
    j.first_error = a->first_error;
    return j;
}

static void free_block(block *b)
{
    sb_io_agg_free(b->agg);
    free(b->extra);
    json_decref(b->xjson);
    free(b);
}

/* group_reporting: a job joins the block of its group's earlier jobs (fio reports a
 * group's jobs together), storbench's lines after the earlier ones'. */
static void push(sb_io_out *o, block *b)
{
    if (o->n > o->floor && sb_io_agg_joins(o->b[o->n - 1]->agg, b->agg)) {
        block *into = o->b[o->n - 1];
        sb_io_agg_merge(into->agg, b->agg);
        if (b->extra) {
            size_t la = into->extra ? strlen(into->extra) : 0, lb = strlen(b->extra);
            into->extra = sb_xrealloc(into->extra, la + lb + 1);
            memcpy(into->extra + la, b->extra, lb + 1);
        }
        free_block(b);
        return;
    }
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 8;
        o->b = sb_xrealloc(o->b, o->cap * sizeof *o->b);
    }
    o->b[o->n++] = b;
}

void sb_io_out_job(sb_io_out *o, const sb_io_job *job, const sb_io_result *r, unsigned groupid,
                   int error, const sb_jobfile_given *given, const sb_io_ranks_report *ranks)
{
    if (!job->stats) /* fio's stats=0: the job ran, its figures are in no report */
        return;
    if (o->formats & SB_IOF_STORBENCH_JSON) {
        json_t *s = sb_io_storbench_json(job, r);
        if (ranks)
            json_object_set_new(s, "ranks", sb_io_ranks_json(ranks));
        if (o->several) {
            json_object_set_new(s, "jobname", json_string(job->name));
            json_object_set_new(s, "groupid", json_integer(groupid));
        }
        json_array_append_new(o->sbjobs, s);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    unsigned n = r->threads && r->n_threads ? r->n_threads : 0;
    for (unsigned t = 0; t < (n ? n : 1); t++) {
        sb_io_agg *agg = sb_io_agg_new(job, r, n ? (int)t : -1, groupid, error, &o->ru0, &ru);
        block *b = new_block(job, r, agg, given);
        if (t + 1 == (n ? n : 1)) { /* storbench's own figures: under the job's last block */
            size_t len = 0;
            FILE *f = open_memstream(&b->extra, &len);
            if (f) {
                extra_text(f, job, r, ranks);
                fclose(f);
            }
            b->xjson = extra_json(job, r, ranks);
        }
        push(o, b);
    }
}

/* ------------------------------------------------------------ writing */

static void disks_now(sb_io_out *o, sb_fio_disk *out)
{
    double ms = (double)(now_ns() - o->t0_ns) / 1e6;
    for (size_t i = 0; i < o->n_disks; i++) {
        sb_fio_disk *d = &out[i];
        sb_diskstat_delta x;
        memset(d, 0, sizeof *d);
        snprintf(d->name, sizeof d->name, "%s", o->disk[i].name);
        if (sb_diskstat_since(&o->disk[i], ms, &x) < 0)
            continue;
        memcpy(d->ios, x.ios, sizeof d->ios);
        memcpy(d->merges, x.merges, sizeof d->merges);
        memcpy(d->ticks, x.ticks, sizeof d->ticks);
        d->in_queue = x.in_queue;
        d->util_pct = x.util_pct;
    }
}

static void print_json(FILE *out, json_t *root)
{
    char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (s) {
        fputs(s, out);
        fputc('\n', out);
    }
    free(s);
}

static void extra_cb(FILE *out, size_t i, void *arg)
{
    const sb_io_out *o = arg;
    if (o->b[i]->extra)
        fputs(o->b[i]->extra, out);
}

/* Every group the blocks name, summed (io/report/aggregate.h), as fio's writers read them. */
static size_t fio_groups(const sb_io_out *o, sb_fio_group *out)
{
    const sb_io_agg **aggs = xcalloc(o->n ? o->n : 1, sizeof *aggs);
    size_t n = 0;
    for (size_t i = 0; i < o->n; i++)
        aggs[i] = o->b[i]->agg;
    for (size_t i = 0; i < o->n; i++) {
        size_t k = 0;
        while (k < n && out[k].id != aggs[i]->groupid)
            k++;
        if (k < n)
            continue;
        sb_io_agg_group g;
        sb_io_agg_group_of(aggs, o->n, aggs[i]->groupid, &g);
        sb_fio_group *f = &out[n++];
        f->id = g.id;
        for (int d = 0; d < SB_FIO_NDIRS; d++) {
            f->bytes[d] = g.bytes[d];
            f->agg_bw[d] = g.agg_bw[d];
            f->min_bw[d] = g.min_bw[d];
            f->max_bw[d] = g.max_bw[d];
            f->min_run_s[d] = g.min_run_s[d];
            f->max_run_s[d] = g.max_run_s[d];
        }
    }
    free(aggs);
    return n;
}

/* The formats in fio's order: normal's job lines, terse, JSON, normal; storbench's JSON last. */
static int write_all(FILE *out, void *arg)
{
    sb_io_out *o = arg;
    sb_fio_job *jobs = xcalloc(o->n ? o->n : 1, sizeof *jobs);
    sb_fio_group *groups = xcalloc(o->n ? o->n : 1, sizeof *groups);
    size_t n_groups = fio_groups(o, groups);
    sb_fio_disk disks[MAX_DISKS];
    for (size_t i = 0; i < o->n; i++)
        jobs[i] = fio_job_of(o->b[i]);
    disks_now(o, disks);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    sb_fio_report r = {jobs, o->n, o->gopts, o->n_gopts, disks, o->n_disks, ts.tv_sec,
                       (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000, STORBENCH_VERSION,
                       o->terse_version, false, groups, n_groups};
    if ((o->formats & SB_IOF_NORMAL) && (o->formats & (SB_IOF_TERSE | SB_IOF_JSON | SB_IOF_JSONPLUS))) {
        sb_fio_print_normal_header(out, &r); /* fio prints it as the jobs start */
        r.header_done = true;
    }
    if (o->formats & SB_IOF_TERSE)
        sb_fio_print_terse(out, &r);
    if (o->formats & (SB_IOF_JSON | SB_IOF_JSONPLUS)) {
        json_t *root = sb_fio_json(&r, o->formats & SB_IOF_JSONPLUS);
        json_t *arr = json_object_get(root, "jobs");
        for (size_t i = 0; i < o->n; i++)
            if (o->b[i]->xjson)
                json_object_set(json_array_get(arr, i), "storbench", o->b[i]->xjson);
        print_json(out, root);
        json_decref(root);
    }
    if (o->formats & SB_IOF_NORMAL)
        sb_fio_print_normal(out, &r, extra_cb, o);
    if (o->formats & SB_IOF_STORBENCH_JSON) {
        if (!o->several && json_array_size(o->sbjobs) == 1) {
            print_json(out, json_array_get(o->sbjobs, 0));
        } else {
            json_t *root = json_object();
            json_object_set_new(root, "storbench_version", json_string(STORBENCH_VERSION));
            json_object_set(root, "jobs", o->sbjobs);
            print_json(out, root);
            json_decref(root);
        }
    }
    free(jobs);
    free(groups);
    return ferror(out) ? -EIO : 0;
}

void sb_io_out_status_begin(sb_io_out *o)
{
    o->floor = o->n;
    o->sb_floor = json_array_size(o->sbjobs);
}

int sb_io_out_status_end(sb_io_out *o)
{
    int rc = 0;
    if (!o->to_file) {
        rc = write_all(stdout, o);
        fflush(stdout);
    } else {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (f) {
            rc = write_all(f, o);
            fclose(f);
            o->status = sb_xrealloc(o->status, o->status_len + len + 1);
            memcpy(o->status + o->status_len, text, len + 1);
            o->status_len += len;
        }
        free(text);
    }
    for (size_t i = o->floor; i < o->n; i++)
        free_block(o->b[i]);
    o->n = o->floor;
    o->floor = 0;
    while (json_array_size(o->sbjobs) > o->sb_floor)
        json_array_remove(o->sbjobs, o->sb_floor);
    return rc;
}

/* To --output FILE: the interval reports, then the final one. */
static int write_file(FILE *out, void *arg)
{
    sb_io_out *o = arg;
    if (o->status)
        fwrite(o->status, 1, o->status_len, out);
    return write_all(out, o);
}

int sb_io_out_end(sb_io_out *o, char *err, size_t errlen)
{
    int rc = 0;
    if (o->to_file)
        rc = sb_atomic_write(o->path, 0666, 0, write_file, o, err, errlen);
    else
        rc = write_all(stdout, o); /* stdout's errors are main()'s (core/output.h) */
    sb_io_out_discard(o);
    return rc;
}

void sb_io_out_discard(sb_io_out *o)
{
    for (size_t i = 0; i < o->n; i++)
        free_block(o->b[i]);
    free(o->b);
    json_decref(o->sbjobs);
    free(o->status);
    free(o);
}
