/*
 * timeseries — how a measurement behaved over time: per-interval samples
 * (IOPS, bandwidth, mean and p99 latency), as fio's log_avg_msec logs give.
 *
 * Two parts. sb_tsb (the builder) turns cumulative counters into intervals
 * at interval boundaries only: the loop that does the I/O keeps recording
 * into its ordinary cumulative histogram and calls sb_tsb_due() (one
 * comparison) per completion; when a boundary has passed, sb_tsb_close()
 * takes the difference of the counters and of the histogram against the
 * snapshot of the previous boundary, so the p99 of an interval costs a scan
 * of the buckets once per interval and nothing per I/O. Raw intervals go into
 * fixed chunks that are never moved, and the count is published with release
 * order, so another thread (the controller that checks steady state) may read
 * the intervals below sb_tsb_count() while the builder appends.
 *
 * sb_series (the stored form) is bounded: at most SB_SERIES_MAX points. When
 * it is full, neighbouring points are merged in pairs and the interval
 * doubles, so a run of any length keeps points of equal length. A merged
 * point's rates are the time-weighted means, its mean latency the I/O-weighted
 * mean, and its p99 the larger of the two (an upper bound: the exact value
 * needs the histograms, which are not kept).
 */
#ifndef SB_TIMESERIES_H
#define SB_TIMESERIES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/histogram.h"

#define SB_SERIES_MAX 1024
/* The shortest interval: each boundary scans the histogram (~60 KB). */
#define SB_TS_MIN_INTERVAL_MS 10u

typedef struct sb_series_point {
    double t;            /* end of the interval, seconds since the measurement began */
    double dur;          /* its length, seconds (the last one may be shorter) */
    double iops;
    double bw;           /* bytes/s */
    double lat_mean_us;  /* 0 when no I/O completed */
    double lat_p99_us;
} sb_series_point;

typedef struct sb_series {
    double interval_s;   /* length of a full point (grows when thinned) */
    size_t n;
    sb_series_point p[SB_SERIES_MAX];
} sb_series;

void sb_series_init(sb_series *s, double interval_s);
/* Appends a point. A point shorter than the interval (after thinning doubled it) is
 * merged into a last point that is not yet full. Thins when full. */
void sb_series_add(sb_series *s, const sb_series_point *pt);
/* a and b merged (b follows a). */
sb_series_point sb_series_merge(const sb_series_point *a, const sb_series_point *b);
/* Mean, minimum and maximum of IOPS (which = 0) or bandwidth (which = 1) over the points
 * of full length (the last, shorter one is left out unless it is the only one).
 * false when the series is empty. */
bool sb_series_range(const sb_series *s, int which, double *min, double *mean, double *max);

/* ---- the builder ---- */

/* One raw interval of one thread. */
typedef struct sb_ts_raw {
    uint64_t ios, bytes;
    uint64_t dur_ns;
    double lat_sum_ns;
    double lat_p99_ns;
} sb_ts_raw;

#define SB_TS_CHUNK 1024u
#define SB_TS_CHUNKS 256u   /* at most 262144 intervals per thread; later ones are dropped */

typedef struct sb_tsb {
    uint64_t start_ns, interval_ns, next_ns;
    uint64_t prev_ios, prev_bytes;
    double prev_sum;
    uint64_t *prev_buckets;      /* [SB_HIST_BUCKETS] snapshot at the last boundary */
    sb_ts_raw *chunk[SB_TS_CHUNKS];
    atomic_size_t count;         /* intervals readable by other threads */
    bool dropped;                /* the cap was reached */
} sb_tsb;

/* 0 or -ENOMEM. Intervals start at start_ns. */
int sb_tsb_init(sb_tsb *b, uint64_t start_ns, uint64_t interval_ns);
void sb_tsb_free(sb_tsb *b);
/* Moves the start (and the first boundary) to start_ns: for a builder allocated before its
 * clock is known. Nothing may have been closed yet. */
static inline void sb_tsb_start(sb_tsb *b, uint64_t start_ns)
{
    b->start_ns = start_ns;
    b->next_ns = start_ns + b->interval_ns;
}
static inline bool sb_tsb_due(const sb_tsb *b, uint64_t now) { return now >= b->next_ns; }
/* Closes every interval whose end is at or before now, from the cumulative histograms
 * h[0..nh) (their counts are the I/Os) and the cumulative bytes. Call before the
 * completion at now is recorded (it belongs to the next interval). Intervals with no
 * completion in them are closed with zeros. */
void sb_tsb_close(sb_tsb *b, uint64_t now, const sb_histogram *const *h, int nh, uint64_t bytes);
/* Closes the last, partial interval at end (when it holds I/O). */
void sb_tsb_finish(sb_tsb *b, uint64_t end, const sb_histogram *const *h, int nh, uint64_t bytes);
static inline size_t sb_tsb_count(const sb_tsb *b)
{
    return atomic_load_explicit(&b->count, memory_order_acquire);
}
static inline const sb_ts_raw *sb_tsb_at(const sb_tsb *b, size_t i)
{
    return &b->chunk[i / SB_TS_CHUNK][i % SB_TS_CHUNK];
}

/* The series of several threads' builders (same start and interval): interval k sums
 * their I/Os and bytes over the longest of their lengths, the mean is I/O-weighted, the
 * p99 the largest of theirs (an upper bound of the combined p99). A last interval
 * shorter than half the length is merged into the one before (no spike at the end). */
void sb_tsb_collect(const sb_tsb *const *b, size_t nb, sb_series *out);
/* Interval k of the threads combined as above; false when some builder has not closed it
 * yet (and is not finished: finished[i] true means its count is final). */
bool sb_tsb_point(const sb_tsb *const *b, const bool *finished, size_t nb, size_t k,
                  sb_series_point *out);

#endif
