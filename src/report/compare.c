/*
 * compare — the computation behind `storbench compare` and its text report
 * (definitions in compare.h). The report keeps the seed page's shape — one
 * block per test, dotted identifiers, aligned values — with the difference to
 * the base where the bar would be, so it reads like the pages it compares. An
 * identifier without a figure for a test is listed under it as "not run".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "results/page_marks.h"

/* A host-bound figure (a modeled device's that its ram twin matched) is the host's, not
 * the device's: it is compared with nothing (docs/devices.md, "Host-bound figures"). */
static bool usable(const sb_entry *e)
{
    return e && isfinite(e->mean) && e->mean > 0 && !e->host_bound;
}

static void compare_cell(const sb_result *r, const sb_entry *b, const sb_entry *e,
                         sb_compare_cell *cell)
{
    memset(cell, 0, sizeof *cell);
    if (!usable(b) || !usable(e))
        return;
    cell->present = true;
    cell->ratio = r->direction == SB_LOWER_IS_BETTER ? b->mean / e->mean : e->mean / b->mean;
    cell->diff = cell->ratio - 1.0;
    if (e == b)
        cell->sig = SB_SIG_NO;
    else if (!sb_entry_se_known(b) || !sb_entry_se_known(e))
        cell->sig = SB_SIG_UNKNOWN;
    else if (fabs(e->mean - b->mean) < sqrt(b->se * b->se + e->se * e->se))
        cell->sig = SB_SIG_NO;
    else
        cell->sig = SB_SIG_YES;
}

int sb_compare(const sb_resultfile *rf, const char *base, sb_comparison *out,
               char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (rf->n_systems == 0) {
        snprintf(err, errlen, "the result file has no identifiers");
        return -ENOENT;
    }
    size_t bi = 0;
    if (base) {
        for (bi = 0; bi < rf->n_systems; bi++)
            if (!strcmp(rf->systems[bi].identifier, base))
                break;
        if (bi == rf->n_systems) {
            snprintf(err, errlen, "no identifier '%s' in the result file", base);
            return -ENOENT;
        }
    }
    out->base = bi;
    out->n_ids = rf->n_systems;
    out->n_results = rf->n_results;
    out->cells = calloc(rf->n_results * rf->n_systems + 1, sizeof *out->cells);
    out->summary = calloc(rf->n_systems, sizeof *out->summary);
    if (!out->cells || !out->summary) {
        sb_comparison_free(out);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    const char *bid = rf->systems[bi].identifier;
    double *logsum = calloc(rf->n_systems, sizeof *logsum);
    if (!logsum) {
        sb_comparison_free(out);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    for (size_t ri = 0; ri < rf->n_results; ri++) {
        const sb_result *r = &rf->results[ri];
        const sb_entry *b = sb_result_find_entry(r, bid);
        for (size_t i = 0; i < rf->n_systems; i++) {
            sb_compare_cell *cell = &out->cells[ri * out->n_ids + i];
            compare_cell(r, b, sb_result_find_entry(r, rf->systems[i].identifier), cell);
            if (!cell->present)
                continue;
            sb_compare_summary *s = &out->summary[i];
            s->n_common++;
            /* Sum of logs, not a product: hundreds of ratios must not overflow. */
            logsum[i] += log(cell->ratio);
            if (cell->sig == SB_SIG_UNKNOWN)
                s->n_unknown++;
            else if (cell->sig == SB_SIG_NO)
                s->n_same++;
            else if (cell->ratio > 1.0)
                s->n_better++;
            else
                s->n_worse++;
        }
    }
    for (size_t i = 0; i < rf->n_systems; i++) {
        sb_compare_summary *s = &out->summary[i];
        s->geomean = s->n_common ? exp(logsum[i] / (double)s->n_common) : NAN;
    }
    free(logsum);
    return 0;
}

void sb_comparison_free(sb_comparison *c)
{
    free(c->cells);
    free(c->summary);
    memset(c, 0, sizeof *c);
}

static void dotted(FILE *out, const char *label, size_t width)
{
    size_t n = strlen(label);
    fputs(label, out);
    if (n < width) {
        fputc(' ', out);
        for (size_t i = n + 1; i < width; i++)
            fputc('.', out);
    }
    fputc(' ', out);
}

static const char *mark(sb_significance s)
{
    return s == SB_SIG_NO ? " ~" : s == SB_SIG_UNKNOWN ? " ?" : "";
}

int sb_report_compare(FILE *out, const sb_resultfile *rf, const sb_comparison *c)
{
    const char *bid = rf->systems[c->base].identifier;
    size_t lw = 0;
    for (size_t i = 0; i < rf->n_systems; i++) {
        size_t n = strlen(rf->systems[i].identifier);
        if (n > lw)
            lw = n;
    }
    lw += 2; /* the longest label still gets " . ", as on the seed pages */

    fprintf(out, "%s\nCompared with: %s (positive = better than it)\n",
            rf->title && *rf->title ? rf->title : "(untitled)", bid);
    fprintf(out, "~ inside the combined standard error (not significant); "
                 "? spread unknown (imported figure or a single run)\n");

    for (size_t ri = 0; ri < rf->n_results; ri++) {
        const sb_result *r = &rf->results[ri];
        /* Width of the value column, so that the differences line up. */
        int vw = 0;
        char buf[64];
        for (size_t j = 0; j < r->n_entries; j++) {
            int n = snprintf(buf, sizeof buf, "%.*f", r->entries[j].decimals,
                             r->entries[j].mean);
            if (n > vw)
                vw = n;
        }
        char line[512];
        sb_result_title_line(r, line, sizeof line);
        fprintf(out, "\n\n%s\n", line);
        /* Figures from several sources (imported, measured): rows end in " [k]", and the
         * legend under them says what [k] is, as on the text page. */
        size_t cap = r->n_entries ? r->n_entries : 1, groups = 0;
        const sb_entry **order = calloc(cap, sizeof *order);
        size_t *group = calloc(cap, sizeof *group);
        if (order && group) {
            for (size_t j = 0; j < r->n_entries; j++)
                order[j] = &r->entries[j];
            groups = sb_result_source_groups(r, order, r->n_entries, group);
        }
        if (r->description && *r->description)
            fprintf(out, "%s\n", r->description);
        fprintf(out, "%s %s\n", r->unit,
                r->direction == SB_LOWER_IS_BETTER ? "< Lower Is Better" : "> Higher Is Better");
        const sb_entry *b = sb_result_find_entry(r, bid);
        for (size_t i = 0; i < rf->n_systems; i++) {
            const sb_entry *e = sb_result_find_entry(r, rf->systems[i].identifier);
            if (!e) { /* listed, not dropped: this identifier lacks the test */
                dotted(out, rf->systems[i].identifier, lw);
                fprintf(out, "%*s\n", vw, SB_NOT_RUN_MARK);
                continue;
            }
            const sb_compare_cell *cell = sb_compare_cell_at(c, ri, i);
            dotted(out, e->identifier, lw);
            fprintf(out, "%*.*f  ", vw, e->decimals, e->mean);
            if (i == c->base)
                fputs("base", out);
            else if (!b)
                fputs("(no base figure)", out);
            else if (e->host_bound || b->host_bound)
                fputs(e->host_bound ? "(host-bound: left out)" : "(base host-bound: left out)", out);
            else if (!cell->present)
                fputs("(not comparable)", out);
            else
                fprintf(out, "%+.1f%%%s", cell->diff * 100.0, mark(cell->sig));
            if (groups > 1)
                fprintf(out, " [%zu]", group[e - r->entries] + 1);
            fputc('\n', out);
        }
        for (size_t g = 0; groups > 1 && g < groups; g++)
            for (size_t j = 0; j < r->n_entries; j++)
                if (group[j] == g) {
                    char src[512];
                    fprintf(out, "[%zu] %s: %s\n", g + 1,
                            r->entries[j].imported ? "imported" : "measured",
                            sb_entry_source(r, &r->entries[j], src, sizeof src));
                    break;
                }
        free(order);
        free(group);
    }

    fprintf(out, "\n\nGeometric mean of the ratios over the tests shared with %s:\n", bid);
    for (size_t i = 0; i < rf->n_systems; i++) {
        if (i == c->base)
            continue;
        const sb_compare_summary *s = &c->summary[i];
        dotted(out, rf->systems[i].identifier, lw);
        if (!s->n_common) {
            fputs("no tests in common\n", out);
            continue;
        }
        fprintf(out, "%+.1f%% (x%.3g) over %zu test%s: %zu better, %zu worse, %zu not significant",
                (s->geomean - 1.0) * 100.0, s->geomean, s->n_common, s->n_common == 1 ? "" : "s",
                s->n_better, s->n_worse, s->n_same);
        if (s->n_unknown)
            fprintf(out, ", %zu unknown", s->n_unknown);
        fputc('\n', out);
    }
    fflush(out);
    return ferror(out) ? -EIO : 0;
}
