/*
 * fio_json — fio's JSON and json+ output (fio_report.h), key for key as fio 3.33's stat.c
 * writes them: the top level's "fio version" (fio's schema version, storbench named beside
 * it), timestamps, "global options", one "jobs" array and "disk_util"; per job its name,
 * group, options and the read / write / trim objects with fio's units (bw in KiB/s,
 * runtime in ms, latencies in ns, percentiles keyed "99.000000"), the CPU, IO depth and
 * latency bucket maps. json+ adds each latency histogram's "bins" (value in ns: count),
 * which fio_jsonplus_clat2csv reads. Keys storbench cannot fill truthfully are left out
 * (docs/io.md, "Output formats").
 */
#include "formats/fio_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void set_int(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, json_integer((json_int_t)llround(v)));
}

static void set_real(json_t *o, const char *k, double v)
{
    json_object_set_new(o, k, json_real(v));
}

/* min, max, mean, stddev, N of a latency (fio's slat_ns / clat_ns / lat_ns); with pct the
 * percentile map, with plus the bins. */
static json_t *lat_json(const sb_fio_job *j, const sb_histogram *h, bool pct, bool plus)
{
    json_t *o = json_object();
    uint64_t n = h ? h->count : 0;
    set_int(o, "min", n ? (double)h->min : 0);
    set_int(o, "max", n ? (double)h->max : 0);
    set_real(o, "mean", n ? sb_hist_mean(h) : 0);
    set_real(o, "stddev", n ? sb_hist_stddev(h) : 0);
    json_object_set_new(o, "N", json_integer((json_int_t)n));
    if (!n || !pct)
        return o;
    const double *pl;
    unsigned np;
    sb_fio_percentiles(j, &pl, &np);
    json_t *p = json_object();
    for (unsigned i = 0; i < np; i++) {
        char k[32];
        snprintf(k, sizeof k, "%f", pl[i]);
        set_int(p, k, sb_hist_percentile(h, pl[i]));
    }
    json_object_set_new(o, "percentile", p);
    if (plus) {
        json_t *b = json_object();
        for (unsigned i = 0; i < SB_HIST_BUCKETS; i++) {
            if (!h->buckets[i])
                continue;
            char k[32];
            snprintf(k, sizeof k, "%.0f", floor(sb_hist_bucket_mid(i)));
            json_object_set_new(b, k, json_integer((json_int_t)h->buckets[i]));
        }
        json_object_set_new(o, "bins", b);
    }
    return o;
}

static json_t *dir_json(const sb_fio_job *j, int d, const sb_fio_group *g, bool plus)
{
    const sb_fio_dir *x = &j->dir[d];
    json_t *o = json_object();
    double bw = x->ios ? sb_fio_bw(j, d) : 0;
    json_object_set_new(o, "io_bytes", json_integer((json_int_t)x->bytes));
    json_object_set_new(o, "io_kbytes", json_integer((json_int_t)(x->bytes / 1024)));
    set_int(o, "bw_bytes", bw);
    set_int(o, "bw", floor(bw / 1024)); /* KiB/s, rounded down as fio's */
    set_real(o, "iops", x->ios ? sb_fio_iops(j, d) : 0);
    set_int(o, "runtime", x->ios ? sb_fio_dir_runtime(j, d) * 1000 : 0);
    json_object_set_new(o, "total_ios", json_integer((json_int_t)x->ios));
    json_object_set_new(o, "short_ios", json_integer(0));
    json_object_set_new(o, "drop_ios", json_integer(0));
    /* slat: an asynchronous engine's (a synchronous one's N is 0, as fio's); lat: its own,
     * or a synchronous engine's clat; json+ bins for each whose percentiles are on, as fio */
    json_object_set_new(o, "slat_ns", lat_json(j, j->no_slat ? NULL : x->slat, j->slat_percentiles, plus));
    json_object_set_new(o, "clat_ns", lat_json(j, j->no_clat ? NULL : x->clat, j->clat_percentiles, plus));
    json_object_set_new(o, "lat_ns", lat_json(j, j->no_lat ? NULL : x->lat ? x->lat : x->clat,
                                              j->lat_percentiles, plus));
    if (x->n_prios) { /* fio 3.33's per-priority latency (cmdprio) */
        json_t *a = json_array();
        for (size_t i = 0; i < x->n_prios; i++) {
            json_t *p = json_object();
            json_object_set_new(p, "prioclass", json_integer(x->prios[i].cls));
            json_object_set_new(p, "prio", json_integer(x->prios[i].level));
            json_object_set_new(p, "clat_ns", lat_json(j, x->prios[i].clat, j->clat_percentiles, false));
            json_array_append_new(a, p);
        }
        json_object_set_new(o, "prios", a);
    }
    double mn, mx, mean, dev;
    size_t n = x->ios ? x->n_samples : 0;
    sb_fio_sample_stats(x->bw_samples, n, &mn, &mx, &mean, &dev);
    set_int(o, "bw_min", mn / 1024);
    set_int(o, "bw_max", mx / 1024);
    set_real(o, "bw_agg", n && g->agg_bw[d] > 0 ? 100 * mean / g->agg_bw[d] : 0);
    set_real(o, "bw_mean", mean / 1024);
    set_real(o, "bw_dev", dev / 1024);
    json_object_set_new(o, "bw_samples", json_integer((json_int_t)n));
    n = x->ios ? x->n_iops_samples : 0;
    sb_fio_sample_stats(x->iops_samples, n, &mn, &mx, &mean, &dev);
    set_int(o, "iops_min", mn);
    set_int(o, "iops_max", mx);
    set_real(o, "iops_mean", mean);
    set_real(o, "iops_stddev", dev);
    json_object_set_new(o, "iops_samples", json_integer((json_int_t)n));
    return o;
}

static json_t *opts_json(const sb_fio_opt *o, size_t n)
{
    json_t *m = json_object();
    for (size_t i = 0; i < n; i++) /* one given bare (group_reporting, thread): none, as fio's */
        if (o[i].value && *o[i].value)
            json_object_set_new(m, o[i].key, json_string(o[i].value));
    return m;
}

static json_t *map_json(const char *const *labels, const double *v, size_t n)
{
    json_t *m = json_object();
    for (size_t i = 0; i < n; i++)
        set_real(m, labels[i], v[i]);
    return m;
}

/* fio's IO depth maps, as shares of their counts. */
static void depth_json(json_t *o, const sb_fio_job *j)
{
    static const char *const lvl[] = {"1", "2", "4", "8", "16", "32", ">=64"};
    static const char *const sub[] = {"0", "4", "8", "16", "32", "64", ">=64"};
    double p[7];
    sb_fio_shares(j->depth_level, p);
    json_object_set_new(o, "iodepth_level", map_json(lvl, p, 7));
    sb_fio_shares(j->depth_submit, p);
    json_object_set_new(o, "iodepth_submit", map_json(sub, p, 7));
    sb_fio_shares(j->depth_complete, p);
    json_object_set_new(o, "iodepth_complete", map_json(sub, p, 7));
}

static json_t *job_json(const sb_fio_report *r, const sb_fio_job *j, bool plus)
{
    static const char *const dn[] = {"read", "write", "trim", "mixed"};
    json_t *o = json_object();
    sb_fio_group g;
    sb_fio_group_of(r, j->groupid, &g);
    json_object_set_new(o, "jobname", json_string(j->name));
    json_object_set_new(o, "groupid", json_integer(j->groupid));
    json_object_set_new(o, "error", json_integer(j->error));
    json_object_set_new(o, "eta", json_integer(0));
    set_int(o, "elapsed", j->elapsed_s);
    json_object_set_new(o, "job options", opts_json(j->opts, j->n_opts));
    int dirs[SB_FIO_NDIRS], nd = sb_fio_dirs(j, dirs);
    for (int k = 0; k < nd; k++)
        if (dirs[k] != SB_FIO_MIXED)
            json_object_set_new(o, dn[dirs[k]], dir_json(j, dirs[k], &g, plus));
    /* the periodic syncs (fsync=N, fdatasync=N): fio's total_ios counts the fsyncs, its
     * latency every sync; end_fsync's and fsync_on_close's are not in it. fio's mixed
     * report has no "sync" */
    if (j->unified != SB_FIO_UNIFIED_MIXED) {
        json_t *s = json_object();
        json_object_set_new(s, "total_ios", json_integer((json_int_t)j->sync_ios));
        json_object_set_new(s, "lat_ns", lat_json(j, j->sync_lat, j->clat_percentiles, false));
        json_object_set_new(o, "sync", s);
    }
    if (j->unified != SB_FIO_UNIFIED_NONE) /* fio's "mixed", after the others */
        json_object_set_new(o, "mixed", dir_json(j, SB_FIO_MIXED, &g, plus));
    set_int(o, "job_runtime", j->runtime_s * 1000);
    set_real(o, "usr_cpu", j->usr_pct);
    set_real(o, "sys_cpu", j->sys_pct);
    json_object_set_new(o, "ctx", json_integer((json_int_t)j->ctx));
    json_object_set_new(o, "majf", json_integer((json_int_t)j->majf));
    json_object_set_new(o, "minf", json_integer((json_int_t)j->minf));
    if (j->depth_known)
        depth_json(o, j);
    double ns[10], us[10], ms[12];
    sb_fio_lat_buckets(j->lat_all, ns, us, ms);
    json_object_set_new(o, "latency_ns", map_json(sb_fio_lat_labels, ns, 10));
    json_object_set_new(o, "latency_us", map_json(sb_fio_lat_labels, us, 10));
    json_object_set_new(o, "latency_ms", map_json(sb_fio_lat_labels, ms, 12));
    /* fio's latency_target settings: without a target, their unset values and iodepth */
    if (j->continue_on_error) { /* fio's keys for continue_on_error, before latency_depth */
        json_object_set_new(o, "total_err", json_integer((json_int_t)j->total_err));
        json_object_set_new(o, "first_error", json_integer(j->first_error));
    }
    json_object_set_new(o, "latency_depth", json_integer(j->latency_depth));
    json_object_set_new(o, "latency_target", json_integer((json_int_t)j->latency_target_ns));
    set_real(o, "latency_percentile", j->latency_percentile);
    json_object_set_new(o, "latency_window", json_integer((json_int_t)j->latency_window_us));
    if (j->desc) /* fio repeats the job's description last, as "desc" */
        json_object_set_new(o, "desc", json_string(j->desc));
    return o;
}

static json_t *disk_json(const sb_fio_disk *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(d->name));
    json_object_set_new(o, "read_ios", json_integer((json_int_t)d->ios[0]));
    json_object_set_new(o, "write_ios", json_integer((json_int_t)d->ios[1]));
    json_object_set_new(o, "read_merges", json_integer((json_int_t)d->merges[0]));
    json_object_set_new(o, "write_merges", json_integer((json_int_t)d->merges[1]));
    json_object_set_new(o, "read_ticks", json_integer((json_int_t)d->ticks[0]));
    json_object_set_new(o, "write_ticks", json_integer((json_int_t)d->ticks[1]));
    json_object_set_new(o, "in_queue", json_integer((json_int_t)d->in_queue));
    set_real(o, "util", d->util_pct);
    return o;
}

json_t *sb_fio_json(const sb_fio_report *r, bool plus)
{
    json_t *root = json_object(), *jobs = json_array();
    char ver[128], when[64];
    snprintf(ver, sizeof ver, "%s (storbench-%s)", SB_FIO_SCHEMA, r->version);
    json_object_set_new(root, "fio version", json_string(ver));
    json_object_set_new(root, "storbench version", json_string(r->version));
    json_object_set_new(root, "timestamp", json_integer((json_int_t)r->when));
    json_object_set_new(root, "timestamp_ms", json_integer((json_int_t)r->when_ms));
    struct tm tm;
    localtime_r(&r->when, &tm);
    strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
    json_object_set_new(root, "time", json_string(when));
    if (r->n_global)
        json_object_set_new(root, "global options", opts_json(r->global_opts, r->n_global));
    for (size_t i = 0; i < r->n_jobs; i++)
        json_array_append_new(jobs, job_json(r, &r->jobs[i], plus));
    json_object_set_new(root, "jobs", jobs);
    if (r->n_disks) {
        json_t *du = json_array();
        for (size_t i = 0; i < r->n_disks; i++)
            json_array_append_new(du, disk_json(&r->disks[i]));
        json_object_set_new(root, "disk_util", du);
    }
    return root;
}
