/*
 * sampling — the job's time series and steady-state check, as the rest of the
 * engine sees them (worker.h): each worker thread owns a builder
 * (core/timeseries.h) that its completion path closes at interval boundaries;
 * the controlling thread reads the intervals every worker has closed, feeds
 * them to the steady-state check (io/steadystate.h) and stops the job when it
 * is met; at the end the workers' intervals become the result's series.
 */
#include <errno.h>
#include <stdlib.h>

#include "io/run/worker.h"

uint64_t sb_io_log_interval_ns(const sb_io_job *job)
{
    double s = job->log_interval_s > 0 ? job->log_interval_s : 1.0;
    return (uint64_t)(s * 1e9 + 0.5);
}

/* The worker's intervals, as the builders the collecting functions take. */
static const sb_tsb **builders(worker *const *ws, unsigned n)
{
    const sb_tsb **b = malloc((n ? n : 1) * sizeof *b);
    for (unsigned i = 0; b && i < n; i++)
        b[i] = &ws[i]->ts;
    return b;
}

bool sb_io_steady_poll(worker *const *ws, unsigned n, sb_ss_state *ss, size_t *next)
{
    if (ss->spec.mode == SB_SS_OFF)
        return false;
    bool *fin = malloc((n ? n : 1) * sizeof *fin);
    const sb_tsb **b = builders(ws, n);
    bool stop = false;
    if (fin && b) {
        /* finished first: a finished worker's count is final (it finished its builder
         * before it said so) */
        for (unsigned i = 0; i < n; i++)
            fin[i] = atomic_load(&ws[i]->finished);
        sb_series_point p;
        while (!stop && sb_tsb_point(b, fin, n, *next, &p)) {
            (*next)++;
            /* lat, lat_slope: the interval's latency sum from its mean (us) */
            stop = sb_ss_feed_lat(ss, p.t, p.dur, p.iops * p.dur, p.bw * p.dur,
                                  p.lat_mean_us * 1e3 * p.iops * p.dur);
        }
    }
    free(fin);
    free(b);
    return stop;
}

#define MAX_SECONDS 3600u

/* per_second: whole seconds of raw intervals (before any thinning), when the log interval
 * divides a second; the first hour. */
static void per_second(worker *const *ws, unsigned n, sb_io_result *res)
{
    uint64_t iv = ws[0]->ts.interval_ns;
    if (!iv || 1000000000ull % iv)
        return;
    size_t per = (size_t)(1000000000ull / iv), full = 0;
    for (unsigned i = 0; i < n; i++) {
        size_t c = sb_tsb_count(&ws[i]->ts), k = 0;
        while (k < c && sb_tsb_at(&ws[i]->ts, k)->dur_ns == iv)
            k++;
        full = k / per > full ? k / per : full;
    }
    if (full > MAX_SECONDS)
        full = MAX_SECONDS;
    if (!full || !(res->bw_bytes_per_s = calloc(full, sizeof *res->bw_bytes_per_s)) ||
        !(res->iops = calloc(full, sizeof *res->iops))) {
        free(res->bw_bytes_per_s);
        res->bw_bytes_per_s = NULL;
        return;
    }
    res->n_seconds = full;
    for (unsigned i = 0; i < n; i++) {
        size_t c = sb_tsb_count(&ws[i]->ts);
        for (size_t k = 0; k < c && k / per < full; k++) {
            res->bw_bytes_per_s[k / per] += (double)sb_tsb_at(&ws[i]->ts, k)->bytes;
            res->iops[k / per] += (double)sb_tsb_at(&ws[i]->ts, k)->ios;
        }
    }
}

#define MAX_WINDOWS 100000u

/* fio's bandwidth (iops false) or IOPS samples: the whole job's rate over each whole
 * window of win_ns, when the raw intervals divide it; *out NULL otherwise. */
static void windows(worker *const *ws, unsigned n, uint64_t win_ns, bool iops, double **out, size_t *count)
{
    uint64_t iv = ws[0]->ts.interval_ns;
    *out = NULL;
    *count = 0;
    if (!iv || win_ns % iv || win_ns == 1000000000ull) /* a second: the per-second samples */
        return;
    size_t per = (size_t)(win_ns / iv), full = 0;
    for (unsigned i = 0; i < n; i++) {
        size_t c = sb_tsb_count(&ws[i]->ts), k = 0;
        while (k < c && sb_tsb_at(&ws[i]->ts, k)->dur_ns == iv)
            k++;
        full = k / per > full ? k / per : full;
    }
    full = full > MAX_WINDOWS ? MAX_WINDOWS : full;
    if (!full || !(*out = calloc(full, sizeof **out)))
        return;
    *count = full;
    double s = (double)win_ns / 1e9;
    for (unsigned i = 0; i < n; i++) {
        size_t c = sb_tsb_count(&ws[i]->ts);
        for (size_t k = 0; k < c && k / per < full; k++) {
            const sb_ts_raw *x = sb_tsb_at(&ws[i]->ts, k);
            (*out)[k / per] += (iops ? (double)x->ios : (double)x->bytes) / s;
        }
    }
}

int sb_io_series_collect(worker *const *ws, unsigned n, sb_io_result *res)
{
    if (n) {
        per_second(ws, n, res);
        windows(ws, n, (uint64_t)ws[0]->job->bw_avg_ms * 1000000ull, false, &res->bw_win, &res->n_bw_win);
        windows(ws, n, (uint64_t)ws[0]->job->iops_avg_ms * 1000000ull, true, &res->iops_win, &res->n_iops_win);
    }
    const sb_tsb **b = builders(ws, n);
    res->series = malloc(sizeof *res->series);
    if (!b || !res->series) {
        free(b);
        free(res->series);
        res->series = NULL;
        return -ENOMEM;
    }
    sb_tsb_collect(b, n, res->series);
    free(b);
    if (!res->series->n) {
        free(res->series);
        res->series = NULL;
    }
    return 0;
}
