/*
 * aggregate — a job's results summed into fio's report blocks (aggregate.h). Every
 * figure a report prints is computed here; the command line only lays the blocks out.
 *
 * What is the process's and not a thread's: storbench's jobs are threads of one
 * process, so CPU, context switches and faults are the process's over the job's run
 * (a phase's jobs overlap and include each other's); a thread's block shows its job's.
 */
#include "io/report/aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "io/engine.h"

/* A copy that writes only the buckets h holds: the copy's other pages stay as calloc
 * left them, unwritten, so the report of a thousand jobs costs memory for their data. */
static sb_histogram *hist_copy(const sb_histogram *h)
{
    sb_histogram *c = sb_xcalloc(1, sizeof *c);
    sb_hist_init_zeroed(c);
    sb_hist_merge(c, h);
    return c;
}

/* cmdprio's latency per priority into the block's directions, as fio's "prios". */
static void agg_prios(sb_io_agg *a, const sb_prio_stats *p)
{
    a->prio = sb_xrealloc(NULL, sizeof *a->prio);
    *a->prio = *p;
    for (int d = 0; d <= SB_DDIR_WRITE; d++) { /* reads and writes: trims have no prios */
        for (unsigned i = 0; i < a->prio->n[d]; i++) {
            uint16_t v = a->prio->ioprio[d][i];
            a->dir[d].prios[i] = (sb_io_agg_prio){v >> 13, v & 7, &a->prio->clat[d][i]};
        }
        a->dir[d].n_prios = a->prio->n[d];
    }
}

/* An asynchronous engine's split of the latency (io/job.h): fio's clat is from the
 * submission, its lat storbench's own from the start, and slat the difference; a
 * synchronous engine's (nothing submitted apart) stays one clat. */
static void split_latency(sb_io_agg_dir *ad, const sb_io_dir_stats *x)
{
    if (!x->clat_issued.count)
        return;
    ad->lat = ad->clat;
    ad->clat = hist_copy(&x->clat_issued);
    ad->slat = hist_copy(&x->slat);
}

/* The whole job's samples into ad: fio's, one per bwavgtime / iopsavgtime, where the
 * result has them (sampling.c), else the per-second ones. */
static void copy_samples(sb_io_agg_dir *ad, const sb_io_result *r)
{
    size_t nb = r->bw_win ? r->n_bw_win : r->n_seconds, ni = r->iops_win ? r->n_iops_win : r->n_seconds;
    if (!nb && !ni)
        return;
    ad->bw = sb_xrealloc(NULL, (nb ? nb : 1) * sizeof *ad->bw);
    ad->iops = sb_xrealloc(NULL, (ni ? ni : 1) * sizeof *ad->iops);
    if (nb)
        memcpy(ad->bw, r->bw_win ? r->bw_win : r->bw_bytes_per_s, nb * sizeof *ad->bw);
    if (ni)
        memcpy(ad->iops, r->iops_win ? r->iops_win : r->iops, ni * sizeof *ad->iops);
    ad->n_samples = nb;
    ad->n_iops_samples = ni;
}

/* The samples are the whole job's, both directions together: they are a direction's only
 * when the job has one. */
static void agg_samples(sb_io_agg *a, const sb_io_job *job, const sb_io_result *r)
{
    int ndirs = sb_rw_reads(job->rw) + sb_rw_writes(job->rw) + sb_rw_trims(job->rw);
    if (ndirs != 1)
        return;
    int d = sb_rw_reads(job->rw) ? SB_DDIR_READ : sb_rw_writes(job->rw) ? SB_DDIR_WRITE : SB_DDIR_TRIM;
    copy_samples(&a->dir[d], r);
}

/* IO depths: an asynchronous engine counts them (loop.c); a synchronous one has one I/O
 * in flight, each submitted and completed on its own. */
static void agg_depths(sb_io_agg *a, const sb_io_result *r, const sb_io_result *x)
{
    const sb_engine_ops *ops = sb_engine_find(r->engine);
    uint64_t ios = x->dir[0].ios + x->dir[1].ios + x->dir[2].ios;
    if (ops && ops->sync) {
        a->depth_level[0] = a->depth_submit[1] = a->depth_complete[1] = ios;
    } else {
        memcpy(a->depth_level, x->depths.level, sizeof a->depth_level);
        memcpy(a->depth_submit, x->depths.submit, sizeof a->depth_submit);
        memcpy(a->depth_complete, x->depths.complete, sizeof a->depth_complete);
    }
    a->depth_known = ops != NULL;
}

/* unified_rw_reporting: every direction's I/Os as one, their latencies merged (an
 * asynchronous engine's split only when every direction that ran has it). The per-second
 * samples are the whole job's, which is what the mixed direction is. */
static void agg_mixed(sb_io_agg *a, const sb_io_result *r, bool whole)
{
    sb_io_agg_dir *m = &a->dir[SB_IO_AGG_MIXED];
    sb_histogram empty;
    sb_hist_init(&empty);
    m->clat = hist_copy(&empty);
    bool split = true, any = false;
    for (int d = 0; d < SB_DDIR_N; d++) {
        const sb_io_agg_dir *x = &a->dir[d];
        m->ios += x->ios;
        m->bytes += x->bytes;
        sb_hist_merge(m->clat, x->clat);
        if (x->ios) {
            any = true;
            split &= x->lat != NULL;
        }
    }
    if (any && split) {
        m->lat = hist_copy(&empty);
        m->slat = hist_copy(&empty);
        for (int d = 0; d < SB_DDIR_N; d++)
            if (a->dir[d].lat) {
                sb_hist_merge(m->lat, a->dir[d].lat);
                sb_hist_merge(m->slat, a->dir[d].slat);
            }
    }
    if (whole)
        copy_samples(m, r);
}

/* What verify read, of the job or of one thread: reads, bytes, their latency, and the
 * seconds of the read-back after the job and of the verify phases inside it. */
typedef struct agg_vreads {
    uint64_t ios, bytes;
    const sb_histogram *clat;
    double read_s, phase_s;
} agg_vreads;

/* verify's read-back among the job's reads, as fio reports its verify phase: the reads
 * counted and timed (a synchronous read's lat is its clat), the read runtime the main
 * phase's (when the job read in it) and the verify phase's. x: the job's or the thread's
 * result (its seconds). */
static void agg_verify_reads(sb_io_agg *a, const sb_io_job *job, const sb_io_result *x, const agg_vreads *v)
{
    sb_io_agg_dir *rd = &a->dir[SB_DDIR_READ];
    /* the verify phases inside the job (loops, time based) are the read runtime's part of
     * its time, not the write's (fio's update_runtime after do_io and after do_verify) */
    double ph = v->phase_s < x->seconds ? v->phase_s : x->seconds;
    rd->runtime_s = (rd->ios ? x->seconds - ph : 0) + v->read_s + ph;
    if (rd->runtime_s <= 0) /* the checks' reads only: fio's read runtime is its verify phases' */
        rd->runtime_s = SB_IO_AGG_NO_RUNTIME;
    if (ph > 0 && a->dir[SB_DDIR_WRITE].ios)
        a->dir[SB_DDIR_WRITE].runtime_s = x->seconds - ph;
    rd->ios += v->ios;
    rd->bytes += v->bytes;
    rd->n_samples = rd->n_iops_samples = 0; /* the per-second samples are the main phase's */
    if (job->disable_clat)
        return;
    sb_hist_merge(rd->clat, v->clat);
    if (rd->lat)
        sb_hist_merge(rd->lat, v->clat);
    sb_hist_merge(a->all, v->clat);
}

/* The verify reads of the block: the job's (t < 0), or thread t's own when the threads are
 * reported one by one (as fio's threads each read back their own writes). False: none. */
static bool vreads_of(const sb_io_result *r, int t, agg_vreads *v)
{
    if (t < 0 && r->verify_read && r->verify_read->ios) {
        *v = (agg_vreads){r->verify_read->ios, r->verify_read->bytes, &r->verify_read->clat, r->verify_read_s,
                          r->verify_phase_s};
        return true;
    }
    if (t < 0 || !r->verify_threads || !r->verify_threads[t].ios)
        return false;
    const sb_verify_thread_reads *tr = &r->verify_threads[t];
    *v = (agg_vreads){tr->ios, tr->bytes, &tr->clat, (double)tr->read_ns / 1e9, (double)tr->phase_ns / 1e9};
    return true;
}

sb_io_agg *sb_io_agg_new(const sb_io_job *job, const sb_io_result *r, int t, unsigned groupid,
                         int error, const struct rusage *ru0, const struct rusage *ru)
{
    sb_io_agg *a = calloc(1, sizeof *a);
    if (!a)
        sb_oom();
    const sb_io_result *x = t < 0 ? r : &r->threads[t];
    a->groupid = groupid;
    a->group_reporting = job->group_reporting;
    a->jobs = t < 0 ? job->numjobs : 1;
    a->runtime_s = x->seconds;
    a->elapsed_s = r->cpu_wall_s;
    bool split = false;
    for (int d = 0; d < SB_DDIR_N; d++) {
        a->dir[d].ios = x->dir[d].ios;
        a->dir[d].bytes = x->dir[d].bytes;
        a->dir[d].clat = hist_copy(&x->dir[d].clat);
        split_latency(&a->dir[d], &x->dir[d]);
        split |= a->dir[d].lat != NULL;
    }
    a->all = hist_copy(&x->clat_all);
    if (t < 0 && r->prio) /* cmdprio: fio's per-priority latency, of the whole job */
        agg_prios(a, r->prio);
    if (split) { /* fio's buckets are of its clat (from the submission) */
        sb_hist_init(a->all);
        for (int d = 0; d < SB_DDIR_N; d++)
            sb_hist_merge(a->all, a->dir[d].lat ? a->dir[d].clat : &x->dir[d].clat);
    }
    if (t < 0 && !job->disable_bw) /* disable_bw_measurement: no samples, as fio */
        agg_samples(a, job, r);
    if (job->unified_rw)
        agg_mixed(a, r, t < 0 && !job->disable_bw);
    agg_vreads vr;
    if (vreads_of(r, t, &vr))
        agg_verify_reads(a, job, x, &vr);
    if (job->disable_clat) /* fio's buckets are of the clat it did not keep */
        sb_hist_init(a->all);
    a->usr_pct = r->cpu_wall_s > 0 ? 100 * r->cpu_user_s / r->cpu_wall_s : 0;
    a->sys_pct = r->cpu_wall_s > 0 ? 100 * r->cpu_sys_s / r->cpu_wall_s : 0;
    a->ctx = (uint64_t)(ru->ru_nvcsw + ru->ru_nivcsw - ru0->ru_nvcsw - ru0->ru_nivcsw);
    a->majf = (uint64_t)(ru->ru_majflt - ru0->ru_majflt);
    a->minf = (uint64_t)(ru->ru_minflt - ru0->ru_minflt);
    agg_depths(a, r, x);
    a->zone_resets = x->zone_resets;
    a->no_syncs = !job->fsync_every && !job->fdatasync_every && !job->end_fsync && !job->fsync_on_close;
    if (x->sync.ios) {
        a->sync_lat = hist_copy(&x->sync.clat);
        a->sync_ios = x->sync_fsyncs;
    }
    /* continue_on_error: the errors gone on after, and the first as the job's error (fio) */
    a->continue_on_error = job->continue_on_error != 0;
    a->total_err = x->total_err;
    a->first_error = x->first_error;
    a->error = error ? error : x->first_error;
    return a;
}

bool sb_io_agg_joins(const sb_io_agg *last, const sb_io_agg *b)
{
    return b->group_reporting && last->group_reporting && last->groupid == b->groupid;
}

/* group_reporting: the split merges as the rest (a job without one adds its clat). */
static void merge_dir(sb_io_agg_dir *into, const sb_io_agg_dir *b)
{
    into->ios += b->ios;
    into->bytes += b->bytes;
    sb_hist_merge(into->clat, b->clat);
    if (b->lat && into->lat) { /* jobs of both kinds: the group's lat is its clat */
        sb_hist_merge(into->lat, b->lat);
        sb_hist_merge(into->slat, b->slat);
    }
    into->n_samples = into->n_iops_samples = 0; /* the jobs' seconds do not line up: no samples */
    if (b->runtime_s > into->runtime_s)
        into->runtime_s = b->runtime_s;
}

static void max_of(double *a, double b) { if (b > *a) *a = b; }
static void max_u(uint64_t *a, uint64_t b) { if (b > *a) *a = b; }

void sb_io_agg_merge(sb_io_agg *a, const sb_io_agg *b)
{
    for (int d = 0; d < SB_DDIR_N; d++)
        merge_dir(&a->dir[d], &b->dir[d]);
    if (a->dir[SB_IO_AGG_MIXED].clat && b->dir[SB_IO_AGG_MIXED].clat)
        merge_dir(&a->dir[SB_IO_AGG_MIXED], &b->dir[SB_IO_AGG_MIXED]);
    sb_hist_merge(a->all, b->all);
    a->jobs += b->jobs;
    max_of(&a->runtime_s, b->runtime_s);
    max_of(&a->elapsed_s, b->elapsed_s);
    max_of(&a->usr_pct, b->usr_pct);
    max_of(&a->sys_pct, b->sys_pct);
    max_u(&a->ctx, b->ctx);
    max_u(&a->majf, b->majf);
    max_u(&a->minf, b->minf);
    if (!a->error)
        a->error = b->error;
    a->total_err += b->total_err;
    if (!a->first_error)
        a->first_error = b->first_error;
    a->continue_on_error |= b->continue_on_error;
    a->depth_known &= b->depth_known;
    for (int i = 0; i < SB_IO_DEPTH_BUCKETS; i++) {
        a->depth_level[i] += b->depth_level[i];
        a->depth_submit[i] += b->depth_submit[i];
        a->depth_complete[i] += b->depth_complete[i];
    }
    a->no_syncs &= b->no_syncs;
    if (b->sync_lat) {
        if (!a->sync_lat)
            a->sync_lat = hist_copy(b->sync_lat);
        else
            sb_hist_merge(a->sync_lat, b->sync_lat);
        a->sync_ios += b->sync_ios;
    }
    a->zone_resets += b->zone_resets;
}

void sb_io_agg_free(sb_io_agg *a)
{
    if (!a)
        return;
    for (int d = 0; d < SB_IO_AGG_NDIR; d++) {
        free(a->dir[d].clat);
        free(a->dir[d].slat);
        free(a->dir[d].lat);
        free(a->dir[d].bw);
        free(a->dir[d].iops);
    }
    free(a->all);
    free(a->sync_lat);
    free(a->prio);
    free(a);
}

void sb_io_agg_group_of(const sb_io_agg *const *blocks, size_t n, unsigned groupid, sb_io_agg_group *g)
{
    memset(g, 0, sizeof *g);
    g->id = groupid;
    bool first[SB_IO_AGG_NDIR] = {true, true, true, true};
    for (size_t i = 0; i < n; i++) {
        const sb_io_agg *a = blocks[i];
        if (a->groupid != groupid)
            continue;
        for (int d = 0; d < SB_IO_AGG_NDIR; d++) {
            if (!a->dir[d].ios)
                continue;
            double run = a->dir[d].runtime_s > 0 ? a->dir[d].runtime_s
                         : a->dir[d].runtime_s < 0 ? 0 : a->runtime_s; /* (SB_IO_AGG_NO_RUNTIME) */
            double bw = run > 0 ? (double)a->dir[d].bytes / run : 0;
            g->bytes[d] += a->dir[d].bytes;
            if (first[d] || bw < g->min_bw[d]) g->min_bw[d] = bw;
            if (first[d] || bw > g->max_bw[d]) g->max_bw[d] = bw;
            if (first[d] || run < g->min_run_s[d]) g->min_run_s[d] = run;
            if (first[d] || run > g->max_run_s[d]) g->max_run_s[d] = run;
            first[d] = false;
        }
    }
    for (int d = 0; d < SB_IO_AGG_NDIR; d++)
        g->agg_bw[d] = g->max_run_s[d] > 0 ? (double)g->bytes[d] / g->max_run_s[d] : 0;
}
