/*
 * csv — the CSV rendering of a result file (see csv.h). The layout is "long":
 * a fixed header whatever the tests, so that one pivot in a spreadsheet gives
 * any table; the headline figure and the secondary figures share the columns
 * and are told apart by the measure column.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report/csv.h"
#include "report/uncertainty.h"

/* Enough digits to round-trip what a person reads, without 0.30000000000000004 noise. */
static void number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.10g", v);
}

static void common(FILE *out, const sb_result *r, const sb_entry *e)
{
    sb_csv_field(out, r->test);
    fputc(',', out);
    sb_csv_field(out, r->title);
    fputc(',', out);
    sb_csv_field(out, r->version);
    fputc(',', out);
    sb_csv_field(out, r->description);
    fputc(',', out);
    sb_csv_field(out, e->identifier);
    fputc(',', out);
}

/* "imported,SQLite 3.8.10.2" / "measured,SQLite 3.40.1 (storbench sqlite)", then (for the
 * figure's own row) the relative SD in percent and whether it is noisy, and the newline. */
static void provenance(FILE *out, const sb_result *r, const sb_entry *e, bool figure)
{
    char buf[512];
    fputs(e->imported ? "imported," : "measured,", out);
    sb_csv_field(out, sb_entry_source(r, e, buf, sizeof buf));
    fputc(',', out);
    double rsd = sb_entry_rsd_pct(e);
    if (figure && rsd >= 0) {
        fprintf(out, "%.2f,", rsd);
        fputs(sb_entry_noisy(e) ? "yes" : "no", out);
    } else {
        fputc(',', out);
    }
    /* host-bound (a modeled device's figure its ram twin matched) and the twin's figure */
    fputc(',', out);
    if (figure) {
        fputs(e->host_bound ? "yes," : "no,", out);
        if (e->host_bound && isfinite(e->host_ref)) /* the twin's figure; none for the lab's vCPU mark */
            number(out, e->host_ref);
    } else {
        fputc(',', out);
    }
    fputc('\n', out);
}

int sb_report_csv(FILE *out, const sb_resultfile *rf)
{
    /* origin and source (what produced the figure), then the later columns, come last, so
     * that the columns of earlier versions keep their places. */
    fputs("test,title,version,description,identifier,measure,unit,direction,"
          "mean,sd,se,runs,untrusted,origin,source,rsd_pct,noisy,host_bound,host_reference\n", out);
    for (size_t i = 0; i < rf->n_results; i++) {
        const sb_result *r = &rf->results[i];
        for (size_t j = 0; j < r->n_entries; j++) {
            const sb_entry *e = &r->entries[j];
            common(out, r, e);
            fputs("result,", out);
            sb_csv_field(out, r->unit);
            fputs(r->direction == SB_LOWER_IS_BETTER ? ",lower," : ",higher,", out);
            number(out, e->mean);
            fputc(',', out);
            /* An imported figure has no runs: its spread is unknown, not zero (unless its
             * page gave "SE +/- x, N = n"). */
            if (sb_entry_has_se(e) || e->n_values > 0) {
                number(out, e->sd);
                fputc(',', out);
                number(out, e->se);
            } else {
                fputc(',', out);
            }
            fprintf(out, ",%zu,%s,", sb_entry_runs(e), e->untrusted ? "yes" : "no");
            provenance(out, r, e, true);
            for (size_t k = 0; k < e->n_secondary; k++) {
                const sb_secondary *s = &e->secondary[k];
                common(out, r, e);
                sb_csv_field(out, s->name);
                fputc(',', out);
                sb_csv_field(out, s->unit);
                fputs(",,", out);
                number(out, s->value);
                fputs(",,,,,", out);
                provenance(out, r, e, false);
            }
        }
    }
    fflush(out);
    return ferror(out) ? -EIO : 0;
}
