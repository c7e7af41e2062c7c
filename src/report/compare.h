/*
 * compare — `storbench compare`: every identifier of a result file against a
 * base identifier. Per test, the relative difference in the better direction
 * (positive = better than the base), whether it lies outside the combined
 * standard error, and per identifier the geometric mean of the ratios over
 * the tests it shares with the base.
 *
 * Definitions (docs/storbench.1, COMPARE):
 *   ratio  = value / base   for Higher Is Better,
 *            base / value   for Lower Is Better (so 2.0 means "twice as good"
 *                           either way: half the seconds, twice the MB/s);
 *   diff   = ratio - 1;
 *   significant when |value - base| >= sqrt(se_value^2 + se_base^2);
 *   unknown when either spread is unknown: fewer than two runs and no SE
 *           (every imported figure) — never counted as a real difference.
 */
#ifndef SB_REPORT_COMPARE_H
#define SB_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "results/result.h"

typedef enum sb_significance {
    SB_SIG_YES = 0,     /* outside the combined standard error */
    SB_SIG_NO = 1,      /* inside it: not significant */
    SB_SIG_UNKNOWN = 2, /* a spread is unknown (imported figures, single runs) */
} sb_significance;

typedef struct sb_compare_cell {
    bool present;          /* both this identifier and the base have a usable figure */
    double ratio;          /* better-direction ratio (see above) */
    double diff;           /* ratio - 1 */
    sb_significance sig;
} sb_compare_cell;

typedef struct sb_compare_summary {
    size_t n_common;       /* tests in the geometric mean */
    double geomean;        /* geometric mean of the ratios; NAN when n_common == 0 */
    size_t n_better;       /* significantly better / worse than the base */
    size_t n_worse;
    size_t n_same;         /* not significant */
    size_t n_unknown;      /* significance unknown */
} sb_compare_summary;

typedef struct sb_comparison {
    size_t base;                  /* index of the base in rf->systems */
    size_t n_ids;                 /* == rf->n_systems */
    size_t n_results;             /* == rf->n_results */
    sb_compare_cell *cells;       /* [result * n_ids + identifier] */
    sb_compare_summary *summary;  /* [identifier]; the base's own is trivial */
} sb_comparison;

/* base: an identifier of rf, or NULL for the first one. 0; -ENOENT (unknown base, or a file
 * without systems) with one line in err; -ENOMEM. */
int sb_compare(const sb_resultfile *rf, const char *base, sb_comparison *out,
               char *err, size_t errlen);
void sb_comparison_free(sb_comparison *c);
static inline const sb_compare_cell *sb_compare_cell_at(const sb_comparison *c, size_t result,
                                                        size_t id)
{
    return &c->cells[result * c->n_ids + id];
}

/* The text report: per test the seed-style block with each identifier's value and its
 * difference to the base, then one geometric-mean line per identifier. 0 or -EIO. */
int sb_report_compare(FILE *out, const sb_resultfile *rf, const sb_comparison *c);

#endif
