/*
 * text — renders a result file as the seed pages' text (docs/text-format.md):
 *
 *   <title>\n<description>\n\n\n
 *   per system:  "<identifier>: \n\n\t<hardware>\n\n\t<software>\n", a blank line between systems
 *   per result:  two blank lines, "<Title> <version>", the option line (omitted when empty),
 *                "<Unit> > Higher Is Better" (or "< Lower Is Better"), then one row per
 *                identifier that has a figure, in system order.
 *
 * A row is the identifier, one space and dots up to the longest identifier's
 * length + 2 (so the longest gets " ."), one space, the value left-aligned in
 * the longest value's width + 1, "|", then round(value / max * (W - used - 1))
 * '=' where "used" is the length of the row so far: the largest bar ends at
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

/* The result's header lines: title and version, option line, unit and direction. */
static void put_result_header(FILE *out, const sb_result *r)
{
    const char *version = str_or_empty(r->version);
    fputs(str_or_empty(r->title), out);
    if (*version)
        fprintf(out, " %s", version);
    putc('\n', out);
    if (r->description && *r->description)
        fprintf(out, "%s\n", r->description);
    fprintf(out, "%s %s\n", str_or_empty(r->unit),
            r->direction == SB_LOWER_IS_BETTER ? "< Lower Is Better" : "> Higher Is Better");
}

/* Rows for the entries in 'order' (n of them, all of r). */
static int put_rows(FILE *out, const sb_entry *const *order, size_t n, int width)
{
    char (*vals)[64] = calloc(n ? n : 1, sizeof *vals);
    if (!vals)
        return -ENOMEM;
    size_t id_w = 0, val_w = 0;
    double max = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_entry *e = order[i];
        sb_report_format_value(vals[i], sizeof vals[i], e->mean, e->decimals);
        size_t w = text_width(str_or_empty(e->identifier));
        if (w > id_w)
            id_w = w;
        w = strlen(vals[i]);
        if (w > val_w)
            val_w = w;
        if (isfinite(e->mean) && e->mean > max)
            max = e->mean;
    }
    /* identifier column (id_w + 2) + space + value column (val_w + 1) + '|' */
    long used = (long)(id_w + 2) + 1 + (long)(val_w + 1) + 1;
    long room = (long)width - used - 1;
    if (room < 0)
        room = 0;
    for (size_t i = 0; i < n; i++) {
        const sb_entry *e = order[i];
        const char *id = str_or_empty(e->identifier);
        fputs(id, out);
        putc(' ', out);
        put_repeat(out, '.', id_w + 1 - text_width(id));
        putc(' ', out);
        fputs(vals[i], out);
        put_repeat(out, ' ', val_w + 1 - strlen(vals[i]));
        putc('|', out);
        long bars = 0;
        if (max > 0 && isfinite(e->mean) && e->mean > 0)
            bars = lround(e->mean / max * (double)room);
        if (bars > room)
            bars = room;
        put_repeat(out, '=', (size_t)bars);
        putc('\n', out);
    }
    free(vals);
    return 0;
}

/* Entries in the order of rf's systems; entries naming no system follow in their own order. */
static int put_result(FILE *out, const sb_resultfile *rf, const sb_result *r, int width)
{
    const sb_entry **order = calloc(r->n_entries ? r->n_entries : 1, sizeof *order);
    if (!order)
        return -ENOMEM;
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
    put_result_header(out, r);
    int rc = put_rows(out, order, n, width);
    free(order);
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
    int rc = put_result(out, NULL, r, width);
    return rc ? rc : finish(out);
}

int sb_report_text(FILE *out, const sb_resultfile *rf, int width)
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
        int rc = put_result(out, rf, &rf->results[i], width);
        if (rc)
            return rc;
    }
    return finish(out);
}
