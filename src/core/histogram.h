/*
 * histogram — a log-linear latency histogram in the manner of HdrHistogram.
 *
 * Values (nanoseconds) below 2^SB_HIST_SUB_BITS are counted exactly; above,
 * each power of two is split into 2^SB_HIST_SUB_BITS equal buckets, so a
 * bucket's width is at most 1/128 of its lower bound and a percentile read
 * from the bucket midpoint is within 0.4 % of the true value, from 1 ns up to
 * 2^63 ns (292 years). Recording is a few integer instructions and no
 * allocation, so it may be called on the hot I/O path. Histograms of several
 * threads are combined with sb_hist_merge().
 */
#ifndef SB_HISTOGRAM_H
#define SB_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define SB_HIST_SUB_BITS 7
#define SB_HIST_SUB_COUNT (1u << SB_HIST_SUB_BITS)
#define SB_HIST_BUCKETS ((64 - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB_COUNT)

typedef struct sb_histogram {
    uint64_t count;
    uint64_t min, max;
    double sum;      /* for the mean */
    double sum_sq;   /* for the standard deviation */
    uint64_t buckets[SB_HIST_BUCKETS];
} sb_histogram;

void sb_hist_init(sb_histogram *h);
/* The same for a histogram in memory known to be zero (fresh mmap): the buckets are
 * not written, so their pages cost nothing until a value lands in them. */
void sb_hist_init_zeroed(sb_histogram *h);
/* Zeroes n bytes at p (a struct holding histograms) writing only the pages that are not
 * zero already: a fresh (calloc'd) result stays unwritten where its histograms are empty,
 * so a job file of a thousand jobs costs memory for what they hold (about 600 KiB of
 * buckets a job, most never used). */
void sb_hist_clear_sparse(void *p, size_t n);

/* Bucket index of v: v itself below 128; above, the group of its highest set bit and
 * the next seven bits. */
static inline unsigned sb_hist_bucket_of(uint64_t v)
{
    if (v < SB_HIST_SUB_COUNT)
        return (unsigned)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v);
    unsigned sub = (unsigned)(v >> (e - SB_HIST_SUB_BITS)) - SB_HIST_SUB_COUNT;
    return (e - SB_HIST_SUB_BITS + 1) * SB_HIST_SUB_COUNT + sub;
}

/* Inline: the I/O engine records every completion (issue 16). */
static inline void sb_hist_record(sb_histogram *h, uint64_t v)
{
    h->buckets[sb_hist_bucket_of(v)]++;
    h->count++;
    double d = (double)(int64_t)v; /* a signed conversion is one instruction; v < 2^63 */
    h->sum += d;
    h->sum_sq += d * d;
    if (v < h->min) h->min = v;
    if (v > h->max) h->max = v;
}
void sb_hist_merge(sb_histogram *dst, const sb_histogram *src);
/* p in [0, 100]; 0 when empty. */
double sb_hist_percentile(const sb_histogram *h, double p);
double sb_hist_mean(const sb_histogram *h);
double sb_hist_stddev(const sb_histogram *h);
/* The value a percentile in bucket idx reads as (its midpoint), for readers of the
 * buckets such as core/timeseries.c. */
double sb_hist_bucket_mid(unsigned idx);

/* The percentiles every workload reports (fio's list). */
#define SB_HIST_N_PERCENTILES 17
extern const double sb_hist_percentiles[SB_HIST_N_PERCENTILES];

#endif
