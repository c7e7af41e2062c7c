/*
 * stats — summary statistics of repeated runs and the dynamic run-count rule.
 *
 * The rule (docs/architecture.md, "The runner"): after the scheduled runs, while the
 * relative standard deviation is 3.5 % or more, add one run at a time up to
 * twice the scheduled count; between 2x and 3x add a run only while the
 * relative SD has fallen below half of the value it had after the scheduled
 * runs (the figure is converging, so more runs will pay off).
 */
#ifndef SB_STATS_H
#define SB_STATS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sb_stats {
    size_t n;
    double mean;
    double sd;      /* sample standard deviation (n - 1); 0 when n < 2 */
    double se;      /* standard error: sd / sqrt(n) */
    double rsd_pct; /* 100 * sd / mean; 0 when mean is 0 */
    double min, max;
} sb_stats;

void sb_stats_compute(const double *values, size_t n, sb_stats *out);

#define SB_RSD_THRESHOLD_PCT 3.5

/* True when, given the successful run values so far, another run is wanted. */
bool sb_run_rule_want_more(unsigned scheduled, const double *values, size_t n);

#endif
