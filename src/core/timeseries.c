/*
 * timeseries — per-interval samples from cumulative counters, and the
 * bounded series they are stored as (see timeseries.h for the why).
 */
#include "core/timeseries.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- series */

void sb_series_init(sb_series *s, double interval_s)
{
    s->interval_s = interval_s;
    s->n = 0;
}

sb_series_point sb_series_merge(const sb_series_point *a, const sb_series_point *b)
{
    sb_series_point m = *b;
    m.dur = a->dur + b->dur;
    if (m.dur <= 0)
        return m;
    double ia = a->iops * a->dur, ib = b->iops * b->dur; /* I/O counts */
    m.iops = (ia + ib) / m.dur;
    m.bw = (a->bw * a->dur + b->bw * b->dur) / m.dur;
    m.lat_mean_us = ia + ib > 0 ? (a->lat_mean_us * ia + b->lat_mean_us * ib) / (ia + ib) : 0;
    m.lat_p99_us = a->lat_p99_us > b->lat_p99_us ? a->lat_p99_us : b->lat_p99_us;
    return m;
}

/* Halves the number of points: each pair becomes one point of twice the length. */
static void thin(sb_series *s)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < s->n; i += 2)
        s->p[k++] = sb_series_merge(&s->p[i], &s->p[i + 1]);
    if (s->n % 2)
        s->p[k++] = s->p[s->n - 1];
    s->n = k;
    s->interval_s *= 2;
}

void sb_series_add(sb_series *s, const sb_series_point *pt)
{
    /* After thinning, a point is full when it spans the new, longer interval; a tenth of a
     * millisecond of slack absorbs rounding in the sums of lengths. */
    if (s->n && s->p[s->n - 1].dur < s->interval_s - 1e-4) {
        s->p[s->n - 1] = sb_series_merge(&s->p[s->n - 1], pt);
        return;
    }
    if (s->n == SB_SERIES_MAX)
        thin(s);
    if (s->n && s->p[s->n - 1].dur < s->interval_s - 1e-4) {
        s->p[s->n - 1] = sb_series_merge(&s->p[s->n - 1], pt);
        return;
    }
    s->p[s->n++] = *pt;
}

bool sb_series_range(const sb_series *s, int which, double *min, double *mean, double *max)
{
    if (!s->n)
        return false;
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    size_t used = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->n > 1 && s->p[i].dur < s->interval_s - 1e-4)
            continue; /* a short last point is not comparable */
        double v = which ? s->p[i].bw : s->p[i].iops;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        sum += v;
        used++;
    }
    if (!used)
        return false;
    *min = lo;
    *max = hi;
    *mean = sum / (double)used;
    return true;
}

/* ---------------------------------------------------------------- builder */

int sb_tsb_init(sb_tsb *b, uint64_t start_ns, uint64_t interval_ns)
{
    memset(b, 0, sizeof *b);
    b->start_ns = start_ns;
    b->interval_ns = interval_ns;
    b->next_ns = start_ns + interval_ns;
    atomic_init(&b->count, 0);
    b->prev_buckets = calloc(SB_HIST_BUCKETS, sizeof *b->prev_buckets);
    return b->prev_buckets ? 0 : -ENOMEM;
}

void sb_tsb_free(sb_tsb *b)
{
    free(b->prev_buckets);
    b->prev_buckets = NULL;
    for (unsigned i = 0; i < SB_TS_CHUNKS; i++) {
        free(b->chunk[i]);
        b->chunk[i] = NULL;
    }
}

/* The interval's p99 from the difference of the current buckets and the snapshot, which
 * then becomes the current buckets. */
static double interval_p99(sb_tsb *b, const sb_histogram *const *h, int nh, uint64_t ios)
{
    uint64_t rank = ios ? (uint64_t)ceil(0.99 * (double)ios) : 0, seen = 0;
    double p99 = 0;
    for (unsigned i = 0; i < SB_HIST_BUCKETS; i++) {
        uint64_t cur = 0;
        for (int k = 0; k < nh; k++)
            cur += h[k]->buckets[i];
        if (cur == b->prev_buckets[i])
            continue;
        seen += cur - b->prev_buckets[i];
        b->prev_buckets[i] = cur;
        if (rank && seen >= rank && p99 == 0)
            p99 = sb_hist_bucket_mid(i);
    }
    return p99;
}

/* Appends one interval of length dur_ns ending at the counters given. */
static void emit(sb_tsb *b, uint64_t dur_ns, const sb_histogram *const *h, int nh, uint64_t bytes)
{
    uint64_t ios = 0;
    double sum = 0;
    for (int k = 0; k < nh; k++) {
        ios += h[k]->count;
        sum += h[k]->sum;
    }
    sb_ts_raw r = {
        .ios = ios - b->prev_ios,
        .bytes = bytes - b->prev_bytes,
        .dur_ns = dur_ns,
        .lat_sum_ns = sum - b->prev_sum,
    };
    r.lat_p99_ns = r.ios ? interval_p99(b, h, nh, r.ios) : 0;
    b->prev_ios = ios;
    b->prev_bytes = bytes;
    b->prev_sum = sum;
    size_t n = atomic_load_explicit(&b->count, memory_order_relaxed);
    size_t c = n / SB_TS_CHUNK;
    if (c >= SB_TS_CHUNKS) {
        b->dropped = true;
        return;
    }
    if (!b->chunk[c] && !(b->chunk[c] = malloc(SB_TS_CHUNK * sizeof *b->chunk[c]))) {
        b->dropped = true;
        return;
    }
    b->chunk[c][n % SB_TS_CHUNK] = r;
    atomic_store_explicit(&b->count, n + 1, memory_order_release);
}

void sb_tsb_close(sb_tsb *b, uint64_t now, const sb_histogram *const *h, int nh, uint64_t bytes)
{
    while (now >= b->next_ns) {
        /* the first closes with the counters; intervals after it saw nothing */
        emit(b, b->interval_ns, h, nh, bytes);
        b->next_ns += b->interval_ns;
    }
}

void sb_tsb_finish(sb_tsb *b, uint64_t end, const sb_histogram *const *h, int nh, uint64_t bytes)
{
    sb_tsb_close(b, end, h, nh, bytes);
    uint64_t ios = 0;
    for (int k = 0; k < nh; k++)
        ios += h[k]->count;
    uint64_t from = b->next_ns - b->interval_ns;
    if (ios > b->prev_ios && end > from)
        emit(b, end - from, h, nh, bytes);
    b->next_ns = UINT64_MAX;
}

bool sb_tsb_point(const sb_tsb *const *b, const bool *finished, size_t nb, size_t k,
                  sb_series_point *out)
{
    uint64_t ios = 0, bytes = 0, dur = 0;
    double sum = 0, p99 = 0;
    bool any = false;
    for (size_t i = 0; i < nb; i++) {
        size_t n = sb_tsb_count(b[i]);
        if (k >= n) {
            if (finished && !finished[i])
                return false;
            continue;
        }
        const sb_ts_raw *r = sb_tsb_at(b[i], k);
        ios += r->ios;
        bytes += r->bytes;
        sum += r->lat_sum_ns;
        dur = r->dur_ns > dur ? r->dur_ns : dur;
        p99 = r->lat_p99_ns > p99 ? r->lat_p99_ns : p99;
        any = true;
    }
    if (!any || !dur)
        return false;
    double d = (double)dur / 1e9;
    out->dur = d;
    out->t = (double)(b[0]->interval_ns * k) / 1e9 + d;
    out->iops = (double)ios / d;
    out->bw = (double)bytes / d;
    out->lat_mean_us = ios ? sum / (double)ios / 1e3 : 0;
    out->lat_p99_us = p99 / 1e3;
    return true;
}

void sb_tsb_collect(const sb_tsb *const *b, size_t nb, sb_series *out)
{
    sb_series_init(out, nb ? (double)b[0]->interval_ns / 1e9 : 1);
    size_t n = 0;
    for (size_t i = 0; i < nb; i++)
        if (sb_tsb_count(b[i]) > n)
            n = sb_tsb_count(b[i]);
    for (size_t k = 0; k < n; k++) {
        sb_series_point p;
        if (sb_tsb_point(b, NULL, nb, k, &p))
            sb_series_add(out, &p);
    }
    /* A last interval under half the length (the drain of the I/Os in flight when the
     * runtime ended: milliseconds) would draw as a spike: it joins the point before. */
    if (out->n >= 2 && out->p[out->n - 1].dur < out->interval_s / 2) {
        out->p[out->n - 2] = sb_series_merge(&out->p[out->n - 2], &out->p[out->n - 1]);
        out->n--;
    }
}
