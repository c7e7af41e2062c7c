/*
 * text — renders a result file as the seed pages' text (docs/text-format.md):
 *
 *   <title>\n<description>\n\n\n
 *   per system:  "<identifier>: \n\n\t<hardware>\n\n\t<software>\n", a blank line between systems
 *   per result:  two blank lines, the title line (what produced the figures, see
 *                put_result_header), the option line (omitted when empty),
 *                "<Unit> > Higher Is Better" (or "< Lower Is Better"), then one row per
 *                identifier that has a figure, in system order, then one row "not run"
 *                with an empty bar per identifier of the page without one (it widens
 *                no column: the other rows are what they would be without it); when the figures come from
 *                several sources, each row is marked " [k]" and a legend line
 *                "[k] imported: <source>" / "[k] measured: <source>" per source follows.
 *                Under each row of a figure of two runs or more, "SE +/- x, N = n"
 *                (ending " !" when the figure is noisy, and then a legend line after the
 *                chart's other legend lines says what "!" means; report/uncertainty.h).
 *
 * A row is the identifier, one space and dots up to the longest identifier's
 * length + 2 (so the longest gets " ."), one space, the value left-aligned in
 * the longest value's width + 1, "|", then round(value / max * (W - used - 1))
 * '=' (value and max as printed) where "used" is the length of the row so far: the largest bar ends at
 * column W - 1. This reproduces every bar of both seed pages at W = 80. Column
 * widths count characters (UTF-8 code points), not bytes, so that non-ASCII
 * identifiers still line up. The page ends with a newline (the seed files lack
 * the final one).
 */
#include "report/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "report/sparkline.h"
#include "report/uncertainty.h"
#include "results/page_marks.h"

void sb_report_format_value(char *buf, size_t len, double value, int decimals)
{
    sb_format_value(buf, len, value, decimals);
}

/* Display width of a UTF-8 string: continuation bytes do not count. */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

static void put_repeat(FILE *out, int c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        putc(c, out);
}

static const char *str_or_empty(const char *s)
{
    return s ? s : "";
}

/* The result's header lines: the title line, option line, unit and direction. The title
 * line names what produced the figures: their common source ("SQLite 3.40.1 (storbench
 * sqlite)", or the seed's "SQLite 3.8.10.2"); with several sources, the test's title alone
 * (the rows are then marked and a legend follows them). */
static void put_result_header(FILE *out, const sb_result *r)
{
    char buf[512];
    sb_result_title_line(r, buf, sizeof buf);
    fputs(buf, out);
    putc('\n', out);
    if (r->description && *r->description)
        fprintf(out, "%s\n", r->description);
    fprintf(out, "%s %s\n", str_or_empty(r->unit),
            r->direction == SB_LOWER_IS_BETTER ? "< Lower Is Better" : "> Higher Is Better");
}

/* Under a row of two runs or more: "SE +/- 0.24, N = 3", ending where the identifier column
 * ends (as PTS's graphs set it under the identifier), at least 4 columns in; a noisy
 * figure's line ends in " !" (docs/text-format.md, "Uncertainty"). */
static void put_se_line(FILE *out, const sb_entry *e, size_t id_col)
{
    if (!sb_entry_has_se(e))
        return;
    char se[96];
    sb_format_se(se, sizeof se, e);
    size_t n = strlen(se);
    put_repeat(out, ' ', id_col >= n + 4 ? id_col - n : 4);
    fputs(se, out);
    if (sb_entry_noisy(e))
        fputs(" " SB_NOISY_MARK, out);
    putc('\n', out);
}

/* Rows for the entries in 'order' (n of them, all of r), labelled labels[i]; an entry that
 * is NULL is an identifier without a figure: its value is SB_NOT_RUN_MARK, its bar empty.
 * Such a row widens no column, so that the figures' rows (and their bars) are what they
 * were without it: a longer label or value gets one dot or space. */
/* The figure as the row prints it: the bars are drawn from it, not from the unrounded
 * mean, so that a page read back (import) draws every bar as it was (72.71 and 72.7149
 * may round to bars one '=' apart). */
static double shown(const char *val, double mean)
{
    char *end;
    double v = strtod(val, &end);
    return end != val && isfinite(v) ? v : mean;
}

static int put_rows(FILE *out, const sb_entry *const *order, char (*labels)[300], size_t n,
                    int width)
{
    char (*vals)[64] = calloc(n ? n : 1, sizeof *vals);
    if (!vals)
        return -ENOMEM;
    size_t id_w = 0, val_w = 0;
    double max = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_entry *e = order[i];
        if (e)
            sb_report_format_value(vals[i], sizeof vals[i], e->mean, e->decimals);
        else
            snprintf(vals[i], sizeof vals[i], "%s", SB_NOT_RUN_MARK);
        if (!e)
            continue; /* a "not run" row takes the columns the figures set */
        size_t w = text_width(labels[i]);
        if (w > id_w)
            id_w = w;
        w = strlen(vals[i]);
        if (w > val_w)
            val_w = w;
        double v = shown(vals[i], e->mean);
        if (isfinite(v) && v > max)
            max = v;
    }
    /* identifier column (id_w + 2) + space + value column (val_w + 1) + '|' */
    long used = (long)(id_w + 2) + 1 + (long)(val_w + 1) + 1;
    long room = (long)width - used - 1;
    if (room < 0)
        room = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_entry *e = order[i];
        const char *id = labels[i];
        size_t w = text_width(id), vw = strlen(vals[i]);
        fputs(id, out);
        putc(' ', out);
        put_repeat(out, '.', w < id_w + 1 ? id_w + 1 - w : 1);
        putc(' ', out);
        fputs(vals[i], out);
        put_repeat(out, ' ', vw < val_w + 1 ? val_w + 1 - vw : 1);
        putc('|', out);
        long bars = 0;
        double v = e ? shown(vals[i], e->mean) : 0;
        if (e && max > 0 && isfinite(v) && v > 0)
            bars = lround(v / max * (double)room);
        if (bars > room)
            bars = room;
        put_repeat(out, '=', (size_t)bars);
        putc('\n', out);
        if (e)
            put_se_line(out, e, id_w + 2);
    }
    free(vals);
    return 0;
}

/* Entries in the order of rf's systems; entries naming no system follow in their own order. */
static int put_result(FILE *out, const sb_resultfile *rf, const sb_result *r, int width,
                      bool sparklines)
{
    size_t cap = r->n_entries + (rf ? rf->n_systems : 0) + 1;
    const sb_entry **order = calloc(cap, sizeof *order);
    size_t *group = calloc(cap, sizeof *group);
    char (*labels)[300] = calloc(cap, sizeof *labels);
    if (!order || !group || !labels) {
        free(order);
        free(group);
        free(labels);
        return -ENOMEM;
    }
    size_t n = 0;
    if (rf) {
        for (size_t s = 0; s < rf->n_systems; s++) {
            const sb_entry *e = sb_result_find_entry(r, rf->systems[s].identifier);
            if (e)
                order[n++] = e;
        }
    }
    for (size_t i = 0; i < r->n_entries; i++) {
        const sb_entry *e = &r->entries[i];
        if (rf && sb_resultfile_find_system(rf, str_or_empty(e->identifier)))
            continue;
        order[n++] = e;
    }
    size_t groups = sb_result_source_groups(r, order, n, group);
    /* The identifiers of the page without a figure in this chart (a merged page): a row
     * each, after the figures, "not run" with an empty bar; import reads it as no figure,
     * so a page read back shows it again. */
    size_t n_fig = n;
    for (size_t s = 0; rf && s < rf->n_systems; s++)
        if (!sb_result_find_entry(r, rf->systems[s].identifier)) {
            snprintf(labels[n], sizeof labels[n], "%s", str_or_empty(rf->systems[s].identifier));
            order[n++] = NULL;
        }
    /* Figures from more than one source: each row is marked " [k]" and the legend under the
     * rows says what [k] is and whether it was imported or measured. */
    for (size_t i = 0; i < n_fig; i++) {
        if (groups > 1)
            snprintf(labels[i], sizeof labels[i], "%s [%zu]", str_or_empty(order[i]->identifier),
                     group[i] + 1);
        else
            snprintf(labels[i], sizeof labels[i], "%s", str_or_empty(order[i]->identifier));
        /* a figure from a job that ended before its steady-state criterion was met; the
         * mark is part of the label, so that import still reads the page */
        if (sb_entry_unsteady(order[i]))
            strncat(labels[i], " (not steady)", sizeof labels[i] - strlen(labels[i]) - 1);
        /* a modeled device's figure that its ram twin matched: the host's, not the model's */
        if (order[i]->host_bound)
            strncat(labels[i], SB_HOST_BOUND_LABEL, sizeof labels[i] - strlen(labels[i]) - 1);
    }
    put_result_header(out, r);
    int rc = put_rows(out, order, labels, n, width);
    n = n_fig; /* legends, marks and sparklines are the figures' */
    for (size_t g = 0; rc == 0 && groups > 1 && g < groups; g++)
        for (size_t i = 0; i < n; i++)
            if (group[i] == g) {
                char buf[512];
                fprintf(out, "[%zu] %s: %s\n", g + 1, order[i]->imported ? "imported" : "measured",
                        sb_entry_source(r, order[i], buf, sizeof buf));
                break;
            }
    bool noisy = false;
    for (size_t i = 0; i < n; i++)
        noisy = noisy || sb_entry_noisy(order[i]);
    if (rc == 0 && noisy)
        fputs(SB_NOISY_LEGEND "\n", out);
    if (rc == 0 && sparklines) {
        const char **lp = calloc(n ? n : 1, sizeof *lp);
        for (size_t i = 0; lp && i < n; i++)
            lp[i] = labels[i];
        if (lp)
            sb_report_sparklines(out, r, order, lp, n, width);
        free(lp);
    }
    free(order);
    free(group);
    free(labels);
    return rc;
}

static void put_kvlist(FILE *out, const sb_kvlist *l)
{
    putc('\t', out);
    for (size_t i = 0; i < l->n; i++)
        fprintf(out, "%s%s: %s", i ? ", " : "", str_or_empty(l->items[i].key),
                str_or_empty(l->items[i].value));
    putc('\n', out);
}

static int finish(FILE *out)
{
    if (fflush(out) != 0 || ferror(out))
        return errno ? -errno : -EIO;
    return 0;
}

int sb_report_text_result(FILE *out, const sb_result *r, int width)
{
    int rc = put_result(out, NULL, r, width, false);
    return rc ? rc : finish(out);
}

int sb_report_text(FILE *out, const sb_resultfile *rf, int width)
{
    return sb_report_text_ex(out, rf, width, false);
}

int sb_report_text_ex(FILE *out, const sb_resultfile *rf, int width, bool sparklines)
{
    fprintf(out, "%s\n%s\n\n\n", str_or_empty(rf->title), str_or_empty(rf->description));
    for (size_t i = 0; i < rf->n_systems; i++) {
        const sb_system *s = &rf->systems[i];
        if (i)
            putc('\n', out);
        fprintf(out, "%s: \n\n", str_or_empty(s->identifier));
        put_kvlist(out, &s->hardware);
        putc('\n', out);
        put_kvlist(out, &s->software);
    }
    for (size_t i = 0; i < rf->n_results; i++) {
        /* Two blank lines before each result; the page header already ends with them. */
        if (i || rf->n_systems)
            fputs("\n\n", out);
        int rc = put_result(out, rf, &rf->results[i], width, sparklines);
        if (rc)
            return rc;
    }
    return finish(out);
}
