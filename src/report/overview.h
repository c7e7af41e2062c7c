/*
 * overview — a whole comparison in one line per identifier: the geometric
 * mean over every result of its figure relative to the base (direction-aware,
 * as `compare` defines the ratio: above 1 is better), how many results it
 * wins (best figure of the chart, ties shared), and how many results it
 * lacks. A result is too noisy to rank when some figure's relative standard
 * deviation (SD / mean of its runs) exceeds SB_NOISY_RSD: it is marked and
 * gives no win, so that readers do not over-read noise.
 */
#ifndef SB_REPORT_OVERVIEW_H
#define SB_REPORT_OVERVIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"
#include "report/uncertainty.h" /* SB_NOISY_RSD */
#include "results/result.h"

typedef struct sb_overview_row {
    double geomean;       /* NAN when no result is shared with the base */
    size_t n_common;      /* results in the geometric mean */
    size_t wins;
    size_t lacks;         /* results without a figure of this identifier */
} sb_overview_row;

typedef struct sb_overview {
    sb_comparison cmp;    /* the per-result ratios it is made of */
    sb_overview_row *rows;      /* [rf->n_systems] */
    double *rsd;                /* [rf->n_results]: the largest relative SD of a figure */
    size_t n_noisy;
} sb_overview;

/* base: an identifier of rf or NULL (the first). 0, or -ENOENT/-ENOMEM with one line in err. */
/* The largest relative SD (SD / mean) of r's figures; 0 when no spread is known. */
double sb_result_worst_rsd(const sb_result *r);
int sb_overview_compute(const sb_resultfile *rf, const char *base, sb_overview *ov, char *err,
                        size_t errlen);
void sb_overview_free(sb_overview *ov);
static inline bool sb_overview_noisy(const sb_overview *ov, size_t result)
{
    return ov->rsd[result] > SB_NOISY_RSD;
}

/* "Overview (relative to BASE; geometric mean over N results)" and a row per identifier;
 * then the results too noisy to rank. */
void sb_overview_text(FILE *out, const sb_resultfile *rf, const sb_overview *ov);
/* identifier,geomean,results_compared,wins,lacks,is_base — and a header line. */
void sb_overview_csv(FILE *out, const sb_resultfile *rf, const sb_overview *ov);
/* The HTML page's first chart: a bar per identifier from the base's 1.0. */
void sb_overview_html(FILE *out, const sb_resultfile *rf, const sb_overview *ov);

#endif
