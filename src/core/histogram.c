/*
 * histogram — log-linear buckets (see histogram.h). Bucket index of v:
 * v itself below 128; above, the group of its highest set bit and the next
 * seven bits. A percentile is the midpoint of the bucket holding that rank,
 * clamped to the observed min and max.
 */
#include "core/histogram.h"

#include <math.h>
#include <string.h>

const double sb_hist_percentiles[SB_HIST_N_PERCENTILES] = {
    1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

void sb_hist_init(sb_histogram *h)
{
    memset(h, 0, sizeof *h);
    h->min = UINT64_MAX;
}

void sb_hist_init_zeroed(sb_histogram *h)
{
    h->min = UINT64_MAX;
}

void sb_hist_clear_sparse(void *p, size_t n)
{
    unsigned char *b = p, *end = b + n;
    while (b < end) {
        /* to the next 4 KiB boundary: one page's bytes at a time */
        size_t len = 4096 - (size_t)((uintptr_t)b & 4095);
        if (len > (size_t)(end - b))
            len = (size_t)(end - b);
        size_t i = 0;
        while (i < len && !b[i])
            i++;
        if (i < len)
            memset(b + i, 0, len - i);
        b += len;
    }
}

double sb_hist_bucket_mid(unsigned idx)
{
    if (idx < SB_HIST_SUB_COUNT)
        return idx;
    unsigned g = idx / SB_HIST_SUB_COUNT, sub = idx % SB_HIST_SUB_COUNT;
    unsigned e = g + SB_HIST_SUB_BITS - 1;
    double width = ldexp(1.0, (int)(e - SB_HIST_SUB_BITS));
    double lo = (double)(SB_HIST_SUB_COUNT + sub) * width;
    return lo + (width - 1) / 2;
}

void sb_hist_merge(sb_histogram *dst, const sb_histogram *src)
{
    if (!src->count)
        return;
    /* Only the buckets src has: a fresh (calloc'd) dst keeps the pages of its empty
     * buckets unwritten, so a thousand jobs' results cost memory for what they hold. */
    for (unsigned i = 0; i < SB_HIST_BUCKETS; i++)
        if (src->buckets[i])
            dst->buckets[i] += src->buckets[i];
    dst->count += src->count;
    dst->sum += src->sum;
    dst->sum_sq += src->sum_sq;
    if (src->min < dst->min) dst->min = src->min;
    if (src->max > dst->max) dst->max = src->max;
}

double sb_hist_percentile(const sb_histogram *h, double p)
{
    if (!h->count)
        return 0;
    if (p <= 0)
        return (double)h->min;
    if (p >= 100)
        return (double)h->max;
    uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < SB_HIST_BUCKETS; i++) {
        seen += h->buckets[i];
        if (seen >= rank) {
            double v = sb_hist_bucket_mid(i);
            if (v < (double)h->min) v = (double)h->min;
            if (v > (double)h->max) v = (double)h->max;
            return v;
        }
    }
    return (double)h->max;
}

double sb_hist_mean(const sb_histogram *h) { return h->count ? h->sum / (double)h->count : 0; }

double sb_hist_stddev(const sb_histogram *h)
{
    if (h->count < 2)
        return 0;
    double n = (double)h->count, mean = h->sum / n;
    double var = (h->sum_sq - n * mean * mean) / (n - 1);
    return var > 0 ? sqrt(var) : 0;
}
