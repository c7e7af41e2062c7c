/*
 * live — see live.h: a running job's figures, read from its worker threads without
 * stopping them, and the last figures once they ended.
 */
#include "io/run/live.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

void sb_io_live_init(sb_io_live *l)
{
    memset(l, 0, sizeof *l);
    pthread_mutex_init(&l->lock, NULL);
}

void sb_io_live_free(sb_io_live *l)
{
    if (l->final) {
        sb_io_result_free(l->final);
        free(l->final);
        l->final = NULL;
    }
    pthread_mutex_destroy(&l->lock);
}

/* A counter the worker thread writes with plain stores: a relaxed load reads one whole
 * value it wrote (aligned 64-bit stores are single-copy atomic where storbench runs). */
static uint64_t peek(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

static double peek_d(const double *p)
{
    double v;
    __atomic_load(p, &v, __ATOMIC_RELAXED);
    return v;
}

/* src's buckets added to dst; the count is that of the buckets read, so that the
 * percentiles agree with it whatever the worker recorded meanwhile. */
static void hist_peek_merge(sb_histogram *dst, const sb_histogram *src)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < SB_HIST_BUCKETS; i++) {
        uint64_t v = peek(&src->buckets[i]);
        dst->buckets[i] += v;
        n += v;
    }
    if (!n)
        return;
    dst->count += n;
    dst->sum += peek_d(&src->sum);
    dst->sum_sq += peek_d(&src->sum_sq);
    uint64_t mn = peek(&src->min), mx = peek(&src->max);
    if (mn < dst->min)
        dst->min = mn;
    if (mx > dst->max)
        dst->max = mx;
}

/* One thread's figures until now added to r, as worker.c's merge does at the end. */
static void peek_worker(const sb_io_live *l, const sb_io_live_thread *w, sb_io_result *r, uint64_t now)
{
    const sb_io_job *job = l->job;
    for (int d = 0; d < SB_DDIR_N; d++) {
        r->dir[d].ios += peek(&w->st[d].ios);
        r->dir[d].bytes += peek(&w->st[d].bytes);
        hist_peek_merge(&r->dir[d].clat, &w->st[d].clat);
        hist_peek_merge(&r->dir[d].slat, &w->st[d].slat);
        hist_peek_merge(&r->dir[d].clat_issued, &w->st[d].clat_issued);
        hist_peek_merge(&r->clat_all, &w->st[d].clat);
    }
    r->sync.ios += peek(&w->sync->ios);
    hist_peek_merge(&r->sync.clat, &w->sync->clat);
    r->sync_fsyncs += peek(w->fsyncs);
    r->cpu_ios += peek(w->ios_done);
    r->total_err += peek(w->total_err);
    for (int i = 0; i < SB_IO_DEPTH_BUCKETS; i++) {
        r->depths.level[i] += peek(&w->depths->level[i]);
        r->depths.submit[i] += peek(&w->depths->submit[i]);
        r->depths.complete[i] += peek(&w->depths->complete[i]);
    }
    /* the measurement's start from the shared clock: the thread's own copy is set late */
    uint64_t ramp_end = l->start_ns + (uint64_t)((job->startdelay_s + job->ramp_s) * 1e9);
    uint64_t end = atomic_load(w->finished) ? peek(w->last_ns) : now;
    double s = end > ramp_end ? (double)(end - ramp_end) / 1e9 : 0;
    if (s > r->seconds)
        r->seconds = s;
    if (end > ramp_end) {
        if (!r->start_ns || ramp_end < r->start_ns)
            r->start_ns = ramp_end;
        if (end > r->end_ns)
            r->end_ns = end;
    }
}

/* The intervals the threads have published (release order: readable while they grow)
 * as the result's series, and as its per-second samples when an interval is a second. */
static int peek_series(const sb_io_live *l, sb_io_result *res)
{
    const sb_tsb **b = malloc((l->n ? l->n : 1) * sizeof *b);
    if (!b || !(res->series = malloc(sizeof *res->series))) {
        free(b);
        return -ENOMEM;
    }
    for (unsigned i = 0; i < l->n; i++)
        b[i] = l->ws[i].ts;
    sb_tsb_collect(b, l->n, res->series);
    free(b);
    sb_series *s = res->series;
    size_t full = 0;
    while (full < s->n && s->interval_s == 1.0 && s->p[full].dur == 1.0)
        full++;
    if (full && (res->bw_bytes_per_s = malloc(full * sizeof (double))) &&
        (res->iops = malloc(full * sizeof (double)))) {
        for (size_t k = 0; k < full; k++) {
            res->bw_bytes_per_s[k] = s->p[k].bw;
            res->iops[k] = s->p[k].iops;
        }
        res->n_seconds = full;
    }
    return 0;
}

/* The threads' figures now; l locked and running. */
static int peek_all(sb_io_live *l, sb_io_result *res)
{
    const sb_io_job *job = l->job;
    uint64_t now = sb_now_ns();
    sb_io_result_empty(res);
    snprintf(res->engine, sizeof res->engine, "%s", l->engine);
    res->effective_iodepth = l->effective_iodepth;
    for (unsigned i = 0; i < l->n; i++)
        peek_worker(l, &l->ws[i], res, now);
    sb_cpu_times cpu;
    sb_cpu_times_now(&cpu);
    res->cpu_user_s = (double)(cpu.user_ns - l->cpu0.user_ns) / 1e9;
    res->cpu_sys_s = (double)(cpu.sys_ns - l->cpu0.sys_ns) / 1e9;
    res->cpu_wall_s = (double)(now - l->start_ns) / 1e9;
    if (!job->group_reporting && l->n >= 2) {
        if (!(res->threads = calloc(l->n, sizeof *res->threads)))
            return -ENOMEM;
        res->n_threads = l->n;
        for (unsigned i = 0; i < l->n; i++) {
            sb_io_result *t = &res->threads[i];
            sb_io_result_empty(t);
            snprintf(t->engine, sizeof t->engine, "%s", l->engine);
            t->effective_iodepth = l->effective_iodepth;
            peek_worker(l, &l->ws[i], t, now);
        }
    }
    return peek_series(l, res);
}

/* A copy of src that owns its own arrays (no cmdprio, no steady-state window). */
static int result_dup(sb_io_result *dst, const sb_io_result *src)
{
    *dst = *src;
    dst->bw_bytes_per_s = dst->iops = NULL;
    dst->n_seconds = 0;
    dst->series = NULL;
    dst->threads = NULL;
    dst->n_threads = 0;
    dst->prio = NULL;
    dst->verify_read = NULL;
    dst->verify_threads = NULL;
    memset(&dst->steady, 0, sizeof dst->steady);
    if (src->n_seconds) {
        size_t b = src->n_seconds * sizeof *src->iops;
        if (!(dst->bw_bytes_per_s = malloc(b)) || !(dst->iops = malloc(b)))
            goto oom;
        memcpy(dst->bw_bytes_per_s, src->bw_bytes_per_s, b);
        memcpy(dst->iops, src->iops, b);
        dst->n_seconds = src->n_seconds;
    }
    if (src->series) {
        if (!(dst->series = malloc(sizeof *dst->series)))
            goto oom;
        *dst->series = *src->series;
    }
    if (src->threads) {
        if (!(dst->threads = malloc(src->n_threads * sizeof *dst->threads)))
            goto oom;
        memcpy(dst->threads, src->threads, src->n_threads * sizeof *dst->threads);
        dst->n_threads = src->n_threads;
    }
    return 0;
oom:
    sb_io_result_free(dst);
    return -ENOMEM;
}

int sb_io_live_snapshot(sb_io_live *l, sb_io_result *res)
{
    pthread_mutex_lock(&l->lock);
    int st = l->state, r = 0;
    if (st == SB_IO_LIVE_RUNNING)
        r = peek_all(l, res);
    else if (st == SB_IO_LIVE_ENDED)
        r = l->final ? result_dup(res, l->final) : -ENOMEM;
    pthread_mutex_unlock(&l->lock);
    if (r < 0 && st == SB_IO_LIVE_RUNNING)
        sb_io_result_free(res);
    return r < 0 ? r : st;
}

int sb_io_live_counts(sb_io_live *l, uint64_t ios[SB_DDIR_N], uint64_t bytes[SB_DDIR_N])
{
    pthread_mutex_lock(&l->lock);
    int st = l->state;
    for (int d = 0; d < SB_DDIR_N; d++) {
        ios[d] = bytes[d] = 0;
        if (st == SB_IO_LIVE_ENDED && l->final) {
            ios[d] = l->final->dir[d].ios;
            bytes[d] = l->final->dir[d].bytes;
        }
        for (unsigned i = 0; st == SB_IO_LIVE_RUNNING && i < l->n; i++) {
            ios[d] += peek(&l->ws[i].st[d].ios);
            bytes[d] += peek(&l->ws[i].st[d].bytes);
        }
    }
    pthread_mutex_unlock(&l->lock);
    return st;
}

uint64_t sb_io_live_replay_bytes(sb_io_live *l)
{
    pthread_mutex_lock(&l->lock);
    uint64_t b = l->state == SB_IO_LIVE_RUNNING && l->job ? l->job->replay_bytes : 0;
    pthread_mutex_unlock(&l->lock);
    return b;
}

void sb_io_live_attach(sb_io_live *l, const sb_io_job *job, const sb_io_live_thread *ws, unsigned n,
                       const char *engine, unsigned depth, uint64_t start_ns, const sb_cpu_times *cpu0)
{
    pthread_mutex_lock(&l->lock);
    l->job = job;
    l->ws = ws;
    l->n = n;
    snprintf(l->engine, sizeof l->engine, "%s", engine);
    l->effective_iodepth = depth;
    l->start_ns = start_ns;
    l->cpu0 = *cpu0;
    l->state = SB_IO_LIVE_RUNNING;
    pthread_mutex_unlock(&l->lock);
}

void sb_io_live_detach(sb_io_live *l)
{
    pthread_mutex_lock(&l->lock);
    if (l->state == SB_IO_LIVE_RUNNING) {
        /* the threads have ended: what they left is final, read once more */
        sb_io_result *f = malloc(sizeof *f);
        if (f && peek_all(l, f) == 0) {
            l->final = f;
        } else if (f) {
            sb_io_result_free(f);
            free(f);
        }
        l->ws = NULL;
        l->n = 0;
        l->state = SB_IO_LIVE_ENDED;
    }
    pthread_mutex_unlock(&l->lock);
}
