/*
 * fio_report — what fio's writers share (fio_report.h): the percentile list, the latency
 * buckets of "lat (usec)" and latency_us, sample statistics, fio's number formatting and
 * a group's "Run status" figures. Kept in one place so that normal, terse and JSON print
 * the same numbers.
 */
#include "formats/fio_report.h"

#include <math.h>
#include <string.h>

void sb_fio_percentiles(const sb_fio_job *j, const double **p, unsigned *n)
{
    if (j->n_percentiles) {
        *p = j->percentiles;
        *n = j->n_percentiles;
    } else {
        *p = sb_hist_percentiles;
        *n = SB_HIST_N_PERCENTILES;
    }
}

const char *const sb_fio_lat_labels[12] = {"2", "4", "10", "20", "50", "100", "250", "500",
                                           "750", "1000", "2000", ">=2000"};
static const unsigned lat_bounds[11] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};

/* fio's io_u_mark_lat_*: a value v (in the unit) goes into the first bucket whose
 * bound it is below; n bounds, the last bucket (ms: ">=2000") takes the rest. */
static unsigned bucket(uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (v < lat_bounds[i])
            return i;
    return n;
}

void sb_fio_lat_buckets(const sb_histogram *h, double ns[10], double us[10], double ms[12])
{
    memset(ns, 0, 10 * sizeof *ns);
    memset(us, 0, 10 * sizeof *us);
    memset(ms, 0, 12 * sizeof *ms);
    if (!h || !h->count)
        return;
    for (unsigned i = 0; i < SB_HIST_BUCKETS; i++) {
        if (!h->buckets[i])
            continue;
        /* a bucket reads as its midpoint, within what was seen (as the percentiles) */
        double mid = sb_hist_bucket_mid(i);
        if (mid < (double)h->min) mid = (double)h->min;
        if (mid > (double)h->max) mid = (double)h->max;
        uint64_t v = (uint64_t)mid;
        double share = 100.0 * (double)h->buckets[i] / (double)h->count;
        if (v < 1000)
            ns[bucket(v, 9)] += share;
        else if (v < 1000000)
            us[bucket(v / 1000, 9)] += share;
        else
            ms[bucket(v / 1000000, 11)] += share;
    }
}

bool sb_fio_sample_stats(const double *v, size_t n, double *min, double *max, double *mean, double *dev)
{
    *min = *max = *mean = *dev = 0;
    if (!n)
        return false;
    double s = 0, lo = v[0], hi = v[0];
    for (size_t i = 0; i < n; i++) {
        s += v[i];
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
    }
    double m = s / (double)n, q = 0;
    for (size_t i = 0; i < n; i++)
        q += (v[i] - m) * (v[i] - m);
    *min = lo;
    *max = hi;
    *mean = m;
    *dev = n > 1 ? sqrt(q / (double)(n - 1)) : 0; /* fio: the sample standard deviation */
    return true;
}

/* fio's lib/num2str.c, in its behaviour: divide by the base until the integer part fits
 * in maxlen digits, then fill the room that is left with decimals. */
void sb_fio_num2str(char *buf, size_t len, double num, int maxlen, bool pow2, const char *unit)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    const double base = pow2 ? 1024 : 1000;
    unsigned k = 0;
    double v = num < 0 ? 0 : num;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.0f", floor(v));
    while ((int)strlen(tmp) > maxlen && k < 6) {
        v /= base;
        k++;
        snprintf(tmp, sizeof tmp, "%.0f", floor(v));
    }
    const char *pre = pow2 ? iec[k] : si[k];
    int room = maxlen - (int)strlen(tmp) - 1; /* minus the dot */
    if (k == 0 || room < 1)
        snprintf(buf, len, "%.0f%s%s", k == 0 ? floor(v) : floor(v + 0.5), pre, unit);
    else
        snprintf(buf, len, "%.*f%s%s", room, v, pre, unit);
}

double sb_fio_dir_runtime(const sb_fio_job *j, int d)
{
    return j->dir[d].runtime_s > 0 ? j->dir[d].runtime_s : j->dir[d].runtime_s < 0 ? 0 : j->runtime_s;
}

double sb_fio_bw(const sb_fio_job *j, int d)
{
    double s = sb_fio_dir_runtime(j, d);
    return s > 0 ? (double)j->dir[d].bytes / s : 0;
}

void sb_fio_shares(const uint64_t *counts, double *pct)
{
    uint64_t sum = 0;
    for (int i = 0; i < 7; i++)
        sum += counts[i];
    for (int i = 0; i < 7; i++)
        pct[i] = sum ? 100.0 * (double)counts[i] / (double)sum : 0;
}

double sb_fio_iops(const sb_fio_job *j, int d)
{
    double s = sb_fio_dir_runtime(j, d);
    return s > 0 ? (double)j->dir[d].ios / s : 0;
}

void sb_fio_group_of(const sb_fio_report *r, unsigned groupid, sb_fio_group *g)
{
    memset(g, 0, sizeof *g);
    g->id = groupid;
    for (size_t i = 0; i < r->n_groups; i++)
        if (r->groups[i].id == groupid)
            *g = r->groups[i];
}

int sb_fio_dirs(const sb_fio_job *j, int d[SB_FIO_NDIRS])
{
    int n = 0;
    if (j->unified != SB_FIO_UNIFIED_MIXED)
        for (int k = 0; k < SB_FIO_NDIR; k++)
            d[n++] = k;
    if (j->unified != SB_FIO_UNIFIED_NONE)
        d[n++] = SB_FIO_MIXED;
    return n;
}
