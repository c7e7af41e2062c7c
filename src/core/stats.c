/*
 * stats — mean, sample SD, SE, relative SD of run values, and the dynamic
 * run-count rule described in stats.h and docs/architecture.md ("The runner").
 */
#include "core/stats.h"

#include <math.h>

void sb_stats_compute(const double *v, size_t n, sb_stats *out)
{
    *out = (sb_stats){.n = n};
    if (n == 0)
        return;
    double sum = 0;
    out->min = out->max = v[0];
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        if (v[i] < out->min) out->min = v[i];
        if (v[i] > out->max) out->max = v[i];
    }
    out->mean = sum / (double)n;
    if (n > 1) {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += (v[i] - out->mean) * (v[i] - out->mean);
        out->sd = sqrt(ss / (double)(n - 1));
        out->se = out->sd / sqrt((double)n);
    }
    if (out->mean != 0)
        out->rsd_pct = 100.0 * out->sd / fabs(out->mean);
}

bool sb_run_rule_want_more(unsigned scheduled, const double *values, size_t n)
{
    if (scheduled == 0)
        return false;
    if (n < scheduled)
        return true;
    if (scheduled < 2 || n >= 3 * (size_t)scheduled)
        return false;
    sb_stats now;
    sb_stats_compute(values, n, &now);
    if (now.rsd_pct < SB_RSD_THRESHOLD_PCT)
        return false;
    if (n < 2 * (size_t)scheduled)
        return true;
    sb_stats first;
    sb_stats_compute(values, scheduled, &first);
    return now.rsd_pct < first.rsd_pct / 2;
}
