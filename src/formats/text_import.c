/*
 * text_import — reads a result page in the seed text format (what sb_report_text()
 * writes, report/text.c) back into the model. Two layouts, picked by looking at the
 * text: tidy (seed 001, line structure intact; text_import_tidy.c) and flattened
 * (seed 000, all whitespace runs made one space; text_import_flat.c). Both fill one
 * page model (text_import_page.h), which this file checks and turns into systems,
 * results and entries.
 *
 * Imported figures carry only what the page shows: mean = the printed value,
 * decimals as printed, no run values; SE and N when an "SE +/- x, N = n" line is under
 * the row (the SD is then SE * sqrt(N)), else no spread.
 *
 * A result without rows before the page's last (PTS prints the heading of a test that
 * gave no figure), a second row of one identifier (PTS: "Test Install Size" of a profile
 * installed twice) and lines before the page's heading (PTS's own warnings) are skipped
 * with one warning each, unless strict, where the first refuses the page: one result does
 * not cost the others. Damage (a value out of range, a bar that does not match its value,
 * a last result without rows: a page cut short) still refuses the page.
 */
#include "formats/text_import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "results/page_marks.h"
#include "formats/text_import_page.h"
#include "results/titles.h"

/* The storbench test a result title belongs to (results/titles.c: the seed pages' titles
 * and every registered test's, kept equal to the registry by test_titles). */
static const char *test_for_title(const char *title)
{
    return sb_known_title_test(title);
}

static int set_str(char **dst, const char *s)
{
    char *n = strdup(s);
    if (!n)
        return -ENOMEM;
    free(*dst);
    *dst = n;
    return 0;
}

static sb_system *new_system(sb_resultfile *rf, const char *ident)
{
    sb_system *s = sb_resultfile_add_system(rf, ident);
    if (!s)
        return NULL;
    if (set_str(&s->timestamp, "") || set_str(&s->tool_version, "imported"))
        return NULL;
    return s;
}

/* "line N: " on a tidy page, nothing on a flattened one (it has one line). */
static const char *at_line(size_t line, char *buf, size_t len)
{
    if (line)
        snprintf(buf, len, "line %zu: ", line);
    else
        buf[0] = '\0';
    return buf;
}

/* Something on the page that cannot be read, at line (0: a flattened page has none):
 * strict, the page's refusal (-EINVAL, the message in err); else a warning naming it
 * (when asked) and a skip (1). */
static int skip_or_refuse(sb_text_import_opts *o, size_t line, char *err, size_t errlen,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int skip_or_refuse(sb_text_import_opts *o, size_t line, char *err, size_t errlen,
                          const char *fmt, ...)
{
    char msg[512], ln[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (o->strict)
        return page_fail(err, errlen, "%s%s (--strict: nothing imported)", at_line(line, ln, sizeof ln),
                         msg);
    o->skipped++;
    const char *name = o->name ? o->name : "page";
    if (o->warn && line)
        sb_warn("import: %s:%zu: %s; skipped", name, line, msg);
    else if (o->warn)
        sb_warn("import: %s: %s; skipped", name, msg);
    return 1;
}

/* "Title: option line" of a result, for messages. */
static const char *result_name(const result_text *rt, char *buf, size_t len)
{
    char a[64], b[64];
    span opts = span_trim(rt->options);
    snprintf(buf, len, "%s%s%s", ti_excerpt(span_trim(rt->title_line), a, sizeof a), opts.n ? ": " : "",
             opts.n ? ti_excerpt(opts, b, sizeof b) : "");
    return buf;
}

/* What a page that was cut short or edited by hand shows: a result without rows, a value
 * that is no finite number, an identifier that swallowed a row (flattened), a bar that
 * does not match its value (the last line cut inside its bar). Checked before anything
 * is built, so that such a page is refused instead of imported with a figure lost. */
static int check_rows(const result_text *rt, size_t *line, char *err, size_t errlen)
{
    char ex[128];
    *line = rt->line;
    if (!rt->n_rows && !rt->unit.n)
        return page_fail(err, errlen, "result '%s' has no '<Unit> > Higher Is Better' line and no rows (a "
                         "test that gave no figure, or the page is cut short)", result_name(rt, ex, sizeof ex));
    if (!rt->n_rows)
        return page_fail(err, errlen, "result '%s' has no rows (a test that gave no figure, or the "
                         "page is cut short)", result_name(rt, ex, sizeof ex));
    double max = 0;
    size_t maxbars = 0;
    for (size_t k = 0; k < rt->n_rows; k++) {
        const row *rw = &rt->rows[k];
        char num[64];
        *line = rw->line;
        if (rw->value.n >= sizeof num)
            return page_fail(err, errlen, "value of '%s' has %zu digits: out of range",
                             ti_excerpt(span_trim(rw->ident), ex, sizeof ex), rw->value.n);
        memcpy(num, rw->value.p, rw->value.n);
        num[rw->value.n] = '\0';
        double v = strtod(num, NULL);
        if (!isfinite(v))
            return page_fail(err, errlen, "value '%s' is out of range", num);
        if (!rw->line && memmem(rw->ident.p, rw->ident.n, " |", 2))
            return page_fail(err, errlen, "not a result row: '%s'", ti_excerpt(rw->ident, ex, sizeof ex));
        if (v > max)
            max = v;
        if (rw->bars > maxbars)
            maxbars = rw->bars;
    }
    /* The longest bar is the largest value's; every other is round(value / max * longest). */
    for (size_t k = 0; maxbars > 1 && k < rt->n_rows; k++) {
        const row *rw = &rt->rows[k];
        double v = strtod(rw->value.p, NULL);
        double want = v > 0 && max > 0 ? v / max * (double)maxbars : 0;
        *line = rw->line;
        if (fabs(want - (double)rw->bars) > 1.5)
            return page_fail(err, errlen, "the bar of '%s' does not match its value %.*s (is the page "
                             "cut short?)", ti_excerpt(span_trim(rw->ident), ex, sizeof ex), (int)rw->value.n,
                             rw->value.p);
    }
    return 0;
}

/* A marked row's identifier "Name [k]": its legend entry, and the identifier without the
 * mark; NULL when the row carries no mark that the legend explains. */
static const legend *row_legend(const result_text *rt, span *ident)
{
    span id = *ident;
    if (id.n < 5 || id.p[id.n - 1] != ']')
        return NULL;
    size_t m = id.n - 1;
    while (m && isdigit((unsigned char)id.p[m - 1]))
        m--;
    if (m == id.n - 1 || m < 3 || id.p[m - 1] != '[' || id.p[m - 2] != ' ')
        return NULL;
    unsigned long k = strtoul(id.p + m, NULL, 10);
    for (size_t j = 0; j < rt->n_legends; j++)
        if (rt->legends[j].k == k) {
            *ident = span_trim(span_make(id.p, m - 2));
            return &rt->legends[j];
        }
    return NULL;
}

/* The page's systems, each with its hardware and software "Key: value" lists. */
static int build_systems(const page *pg, sb_resultfile *rf, char *err, size_t errlen)
{
    for (size_t i = 0; i < pg->n_systems; i++) {
        const system_text *st = &pg->systems[i];
        char *a = span_sdup(st->ident);
        if (!a)
            return -ENOMEM;
        if (sb_resultfile_find_system(rf, a)) {
            int rc = page_fail(err, errlen, "identifier '%s' appears twice", a);
            free(a);
            return rc;
        }
        sb_system *s = new_system(rf, a);
        free(a);
        if (!s)
            return -ENOMEM;
        int rc;
        if ((rc = ti_parse_kvlist(st->hardware, &s->hardware)) ||
            (rc = ti_parse_kvlist(st->software, &s->software)))
            return rc;
    }
    return 0;
}

/* One row of result text rt (title line tl) as an entry of r; 1 when skipped (a second
 * row of its identifier: the first is kept, as the PTS XML reader keeps the first entry). */
static int build_entry(const result_text *rt, span tl, const row *rw, sb_result *r,
                       sb_resultfile *rf, sb_text_import_opts *o, char *err, size_t errlen)
{
    char ex[128], ex2[64];
    int rc = -ENOMEM;
    char *a = NULL, *b = NULL;
    /* The row's source: its legend entry (the row is marked " [k]"), else the title
     * line. Every figure read from a page is imported. */
    span ident = span_trim(rw->ident), source = tl;
    if (span_eq(rw->value, SB_NOT_RUN_MARK))
        return 1; /* the identifier has no figure here: its system is listed, its row empty */
    if (rt->n_legends) {
        const legend *lg = row_legend(rt, &ident);
        if (!lg)
            return page_fail(err, errlen, "a row of '%s' has no legend mark: '%s'",
                             ti_excerpt(tl, ex, sizeof ex), ti_excerpt(ident, ex2, sizeof ex2));
        source = lg->source;
    }
    if (!(a = span_sdup(ident)) || !(b = span_sdup(rw->value)))
        goto out;
    if (!*a) {
        rc = page_fail(err, errlen, "a row of '%s' has no identifier", ti_excerpt(tl, ex, sizeof ex));
        goto out;
    }
    if (sb_result_find_entry(r, a)) {
        rc = skip_or_refuse(o, rw->line, err, errlen, "'%s' has two rows in result '%s' (the first is kept)",
                            a, result_name(rt, ex, sizeof ex));
        goto out;
    }
    /* A row naming no listed system still counts: the system gets an empty description. */
    if (!sb_resultfile_find_system(rf, a) && !new_system(rf, a))
        goto out;
    sb_entry *e = sb_result_add_entry(r, a);
    if (!e)
        goto out;
    free(a);
    if (!(a = span_sdup(source)))
        goto out;
    sb_entry_set_source(e, a, true);
    e->mean = strtod(b, NULL);
    e->sd = 0;
    e->se = 0;
    if (rw->se.n) {
        /* "SE +/- x, N = n" under the row: the SD is what the SE gives back */
        char num[64];
        snprintf(num, sizeof num, "%.*s", (int)(rw->se.n < 63 ? rw->se.n : 63), rw->se.p);
        e->se = strtod(num, NULL);
        e->n_runs = rw->se_n;
        e->sd = isfinite(e->se) ? e->se * sqrt((double)rw->se_n) : 0;
        if (!isfinite(e->se) || rw->se.n >= 63) {
            rc = page_fail(err, errlen, "the SE of '%s' is out of range", ti_excerpt(ident, ex, sizeof ex));
            goto out;
        }
    }
    const char *dot = strchr(b, '.');
    e->decimals = dot ? (int)strlen(dot + 1) : 0;
    rc = 0;
out:
    free(a);
    free(b);
    return rc;
}

/* One result: its title, version, option line, unit and direction, then its rows. */
static int build_result(const result_text *rt, sb_resultfile *rf, sb_text_import_opts *o, char *err,
                        size_t errlen)
{
    char ex[64];
    span tl = span_trim(rt->title_line), title, version, untagged;
    const char *tagged = ti_storbench_tag(tl, &untagged);
    ti_split_title_version(untagged, &title, &version);
    if (!title.n)
        return page_fail(err, errlen, "a result with no title");
    if (!rt->unit.n)
        return page_fail(err, errlen, "result '%s' has no unit", ti_excerpt(tl, ex, sizeof ex));
    char *a = span_sdup(title), *b = span_sdup(version), *c = span_sdup(rt->options), *d = span_sdup(rt->unit);
    sb_result *r = NULL;
    if (a && b && c && d)
        r = sb_resultfile_get_result(rf, tagged ? tagged : test_for_title(a), a, b, c, d, rt->dir);
    free(a);
    free(b);
    free(c);
    free(d);
    if (!r)
        return -ENOMEM;
    for (size_t k = 0; k < rt->n_rows; k++) {
        int rc = build_entry(rt, tl, &rt->rows[k], r, rf, o, err, errlen);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int build(const page *pg, sb_resultfile *rf, sb_text_import_opts *o, char *err, size_t errlen)
{
    int rc;
    if (!pg->n_results)
        return page_fail(err, errlen, "no results: no '<Unit> > Higher Is Better' line with rows "
                         "(is the page cut short?)");
    /* A page without one direction line is no result page (prose, a script), whatever
     * could be skipped on it */
    bool chart = false;
    for (size_t i = 0; i < pg->n_results; i++)
        chart |= pg->results[i].unit.n > 0;
    if (!chart)
        return page_fail(err, errlen, "not a result page: no '<Unit> > Higher Is Better' line");
    /* Every result is checked before anything is built: one that cannot be read is
     * skipped (or, strict, refuses the page) */
    bool *skip = calloc(pg->n_results, sizeof *skip);
    if (!skip)
        return -ENOMEM;
    for (size_t i = 0; i < pg->n_results; i++) {
        char msg[256];
        size_t line;
        if (check_rows(&pg->results[i], &line, msg, sizeof msg) == 0)
            continue;
        /* Only a result without rows before the last one is PTS's (a test that gave no
         * figure); a damaged value or bar, or a last result without rows (where a page cut
         * short shows), refuses the page as ever (docs/text-format.md, issue 11) */
        if (pg->results[i].n_rows || i + 1 == pg->n_results) {
            char ln[32];
            free(skip);
            return page_fail(err, errlen, "%s%s", at_line(line, ln, sizeof ln), msg);
        }
        if ((rc = skip_or_refuse(o, line, err, errlen, "%s", msg)) < 0) {
            free(skip);
            return rc;
        }
        skip[i] = true;
    }

    char *a = span_sdup(pg->title), *b = span_sdup(pg->description);
    rc = a && b ? 0 : -ENOMEM;
    if (!rc)
        sb_resultfile_set_title(rf, a, b);
    free(a);
    free(b);
    if (!rc)
        rc = build_systems(pg, rf, err, errlen);
    for (size_t i = 0; !rc && i < pg->n_results; i++)
        if (!skip[i])
            rc = build_result(&pg->results[i], rf, o, err, errlen);
    free(skip);
    if (rc == -ENOMEM && err && errlen)
        snprintf(err, errlen, "out of memory");
    return rc;
}

/* Lines before the heading of a tidy page (start > 0) that are not blank: skipped, named
 * by the first of them, or (strict) the page's refusal. */
static int leading_lines(const lines *ls, size_t start, sb_text_import_opts *o, char *err, size_t errlen)
{
    size_t first = 0;
    while (first < start && span_trim(ls->l[first]).n == 0)
        first++;
    if (first == start)
        return 0;
    char a[64], b[64];
    return skip_or_refuse(o, first + 1, err, errlen, "lines %zu to %zu, before the page's title '%s' (line "
                          "%zu), are not part of the page ('%s')", first + 1, start,
                          ti_excerpt(span_trim(ls->l[start]), a, sizeof a), start + 1,
                          ti_excerpt(span_trim(ls->l[first]), b, sizeof b));
}

int sb_text_import(const char *text, size_t len, sb_resultfile *rf, char *err, size_t errlen)
{
    sb_text_import_opts o = {.strict = true};
    return sb_text_import_ex(text, len, rf, &o, err, errlen);
}

int sb_text_import_ex(const char *text, size_t len, sb_resultfile *rf, sb_text_import_opts *o,
                      char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    /* show's CDM table (results/page_marks.h) repeats the charts above it: read up to it */
    const char *cdm = memmem(text, len, SB_CDM_HEADING, strlen(SB_CDM_HEADING));
    if (cdm)
        len = (size_t)(cdm - text);
    span t = span_make(text, len);
    int rc = page_check_text(text, len, "a result page", err, errlen);
    if (rc)
        return rc;

    page pg = {0};
    lines ls = {0};
    rc = ti_split_lines(t, &ls);
    if (rc)
        goto out;
    size_t start;
    if (ti_tidy_start(&ls, &start)) {
        /* Lines intact: read line by line, and a line that is wrong is refused with its
         * number (reading it as a flattened page would turn it into a fake identifier). */
        char terr[256] = "";
        rc = ti_parse_tidy(&ls, start, &pg, terr, sizeof terr);
        if (rc == -EINVAL)
            page_fail(err, errlen, "not a result page: %s", terr);
        else if (rc == 0 && (rc = leading_lines(&ls, start, o, err, errlen)) >= 0)
            rc = build(&pg, rf, o, err, errlen);
        goto out;
    }
    size_t flen;
    char *flat = ti_flatten(t, &flen);
    if (!flat) {
        rc = -ENOMEM;
        goto out;
    }
    char ferr[256] = "";
    rc = ti_parse_flat(span_make(flat, flen), &pg, ferr, sizeof ferr);
    if (rc == 0 && !pg.n_systems && !pg.n_results)
        rc = page_fail(ferr, sizeof ferr, "no system description and no '<Unit> > Higher Is Better' result");
    if (rc == 0)
        rc = build(&pg, rf, o, err, errlen);
    else if (rc == -EINVAL)
        page_fail(err, errlen, "not a result page: %s", ferr);
    free(flat);
out:
    ti_page_free(&pg);
    free(ls.l);
    if (rc == -ENOMEM && err && errlen)
        snprintf(err, errlen, "out of memory");
    return rc;
}
