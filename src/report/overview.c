/*
 * overview — one line per identifier summing up a comparison (see
 * overview.h): built on compare.c's ratios, plus wins, lacks and the results
 * too noisy to rank; printed as text, CSV and the HTML page's first chart.
 */
#include "report/overview.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"

/* a host-bound figure (the host's, not the modeled device's: docs/devices.md) counts in no ratio */
static bool usable(const sb_entry *e) { return e && isfinite(e->mean) && e->mean > 0 && !e->host_bound; }

double sb_result_worst_rsd(const sb_result *r)
{
    double w = 0;
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        if (usable(e) && sb_entry_runs(e) > 1 && e->sd / e->mean > w)
            w = e->sd / e->mean;
    }
    return w;
}

/* Wins of result ri: every identifier whose figure is the best (ties share). */
static void count_wins(const sb_resultfile *rf, const sb_result *r, sb_overview_row *rows)
{
    double best = NAN;
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        if (!usable(e))
            continue;
        if (isnan(best) || (r->direction == SB_LOWER_IS_BETTER ? e->mean < best : e->mean > best))
            best = e->mean;
    }
    for (size_t i = 0; i < rf->n_systems && !isnan(best); i++) {
        const sb_entry *e = sb_result_find_entry(r, rf->systems[i].identifier);
        if (usable(e) && e->mean == best)
            rows[i].wins++;
    }
}

int sb_overview_compute(const sb_resultfile *rf, const char *base, sb_overview *ov, char *err,
                        size_t errlen)
{
    memset(ov, 0, sizeof *ov);
    int rc = sb_compare(rf, base, &ov->cmp, err, errlen);
    if (rc < 0)
        return rc;
    ov->rows = calloc(rf->n_systems, sizeof *ov->rows);
    ov->rsd = calloc(rf->n_results + 1, sizeof *ov->rsd);
    if (!ov->rows || !ov->rsd) {
        sb_overview_free(ov);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (size_t i = 0; i < rf->n_systems; i++) {
        ov->rows[i].geomean = ov->cmp.summary[i].geomean;
        ov->rows[i].n_common = ov->cmp.summary[i].n_common;
    }
    for (size_t ri = 0; ri < rf->n_results; ri++) {
        const sb_result *r = &rf->results[ri];
        ov->rsd[ri] = sb_result_worst_rsd(r);
        for (size_t i = 0; i < rf->n_systems; i++)
            if (!sb_result_find_entry(r, rf->systems[i].identifier))
                ov->rows[i].lacks++;
        if (sb_overview_noisy(ov, ri))
            ov->n_noisy++;
        else
            count_wins(rf, r, ov->rows);
    }
    return 0;
}

void sb_overview_free(sb_overview *ov)
{
    sb_comparison_free(&ov->cmp);
    free(ov->rows);
    free(ov->rsd);
    memset(ov, 0, sizeof *ov);
}

void sb_overview_text(FILE *out, const sb_resultfile *rf, const sb_overview *ov)
{
    size_t lw = 0;
    for (size_t i = 0; i < rf->n_systems; i++)
        lw = strlen(rf->systems[i].identifier) > lw ? strlen(rf->systems[i].identifier) : lw;
    fprintf(out, "Overview: relative to %s, geometric mean over the results shared with it "
                 "(above 1 is better), wins of %zu results, results lacking\n",
            rf->systems[ov->cmp.base].identifier, rf->n_results - ov->n_noisy);
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_overview_row *o = &ov->rows[i];
        fprintf(out, "  %-*s  ", (int)lw, rf->systems[i].identifier);
        if (o->n_common)
            fprintf(out, "x%-7.3f (%+6.1f%%) over %zu", o->geomean, (o->geomean - 1) * 100, o->n_common);
        else
            fputs("no result shared with the base", out);
        fprintf(out, ", %zu win%s, %zu lacking%s\n", o->wins, o->wins == 1 ? "" : "s", o->lacks,
                i == ov->cmp.base ? " (base)" : "");
    }
    if (ov->n_noisy) {
        fprintf(out, "Too noisy to rank (a figure's relative SD above %.0f %%; no wins counted):\n",
                SB_NOISY_RSD * 100);
        for (size_t ri = 0; ri < rf->n_results; ri++)
            if (sb_overview_noisy(ov, ri)) {
                char line[512];
                sb_result_title_line(&rf->results[ri], line, sizeof line);
                fprintf(out, "  %s [%s]: %.1f %%\n", line, rf->results[ri].description,
                        ov->rsd[ri] * 100);
            }
    }
}

void sb_overview_csv(FILE *out, const sb_resultfile *rf, const sb_overview *ov)
{
    fputs("identifier,geomean,results_compared,wins,lacks,base\n", out);
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_overview_row *o = &ov->rows[i];
        sb_csv_field(out, rf->systems[i].identifier);
        if (o->n_common)
            fprintf(out, ",%.6g", o->geomean);
        else
            fputs(",", out);
        fprintf(out, ",%zu,%zu,%zu,%s\n", o->n_common, o->wins, o->lacks,
                i == ov->cmp.base ? "yes" : "no");
    }
}

/* The bars start at the base's 1.0 in the middle and run right (better) or left (worse),
 * on a log scale so that twice and half as good are as long. */
void sb_overview_html(FILE *out, const sb_resultfile *rf, const sb_overview *ov)
{
    double span = log(1.25);
    for (size_t i = 0; i < rf->n_systems; i++)
        if (ov->rows[i].n_common && fabs(log(ov->rows[i].geomean)) > span)
            span = fabs(log(ov->rows[i].geomean));
    const int row = 26, top = 8;
    fputs("<section class=\"overview\" id=\"overview\">\n<h2>Overview</h2>\n<p class=\"note\">"
          "Geometric mean over the results of each identifier's figure relative to ", out);
    sb_html_escape(out, rf->systems[ov->cmp.base].identifier);
    fputs(" (right of the line is better, whatever the direction of each test), the results "
          "it wins and those it lacks.</p>\n", out);
    fprintf(out, "<svg class=\"overview\" role=\"img\" aria-label=\"overview\" height=\"%zu\">\n",
            top + row * rf->n_systems + 8);
    fprintf(out, "<line class=\"ov-base\" x1=\"60%%\" x2=\"60%%\" y1=\"0\" y2=\"%zu\"/>\n",
            top + row * rf->n_systems);
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_overview_row *o = &ov->rows[i];
        double y = top + row * (double)i;
        fprintf(out, "<text x=\"0\" y=\"%.0f\">", y + 16);
        sb_html_escape(out, rf->systems[i].identifier);
        fputs("</text>\n", out);
        if (o->n_common) {
            double w = log(o->geomean) / span * 20; /* percent of the width each way */
            fprintf(out, "<rect class=\"ov-bar%s\" x=\"%.2f%%\" y=\"%.0f\" width=\"%.2f%%\" height=\"18\" "
                         "data-identifier=\"",
                    o->geomean > 1 ? " better" : "", w < 0 ? 60 + w : 60, y + 3, fabs(w) + 0.2);
            sb_html_escape(out, rf->systems[i].identifier);
            fprintf(out, "\" data-geomean=\"%.6g\"/>\n", o->geomean);
        }
        fprintf(out, "<text class=\"value\" x=\"84%%\" y=\"%.0f\">", y + 16);
        if (o->n_common)
            fprintf(out, "x%.3f", o->geomean);
        else
            fputs("&#8212;", out);
        fprintf(out, " &#183; %zu win%s &#183; %zu lacking</text>\n", o->wins, o->wins == 1 ? "" : "s",
                o->lacks);
    }
    fputs("</svg>\n", out);
    if (ov->n_noisy)
        fprintf(out, "<p class=\"note\">%zu result%s too noisy to rank (a figure's relative SD above "
                     "%.0f %%): marked below, no wins counted.</p>\n",
                ov->n_noisy, ov->n_noisy == 1 ? "" : "s", SB_NOISY_RSD * 100);
    fputs("</section>\n", out);
}
