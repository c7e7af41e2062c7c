/*
 * text_import_tidy — reads a page in the tidy layout (seed 001: line structure
 * intact): title and description are the first two lines, each system is
 * "Identifier: " + tab-indented hardware and software lines, each result is
 * title+version / option line / "Unit > Higher Is Better" / rows, with an optional
 * source legend. Everything is read exactly, and a wrong line is refused with its
 * number.
 */
#include "formats/text_import_page.h"

#include <errno.h>
#include <stdlib.h>

#include "results/page_marks.h"

int ti_split_lines(span text, lines *out)
{
    size_t cap = 64;
    out->l = malloc(cap * sizeof *out->l);
    out->n = 0;
    if (!out->l)
        return -ENOMEM;
    size_t start = 0;
    for (size_t i = 0; i <= text.n; i++) {
        if (i < text.n && text.p[i] != '\n')
            continue;
        span l = span_make(text.p + start, i - start);
        if (l.n && l.p[l.n - 1] == '\r')
            l.n--;
        if (out->n == cap) {
            span *n = realloc(out->l, 2 * cap * sizeof *n);
            if (!n)
                return -ENOMEM;
            out->l = n;
            cap *= 2;
        }
        out->l[out->n++] = l;
        start = i + 1;
    }
    while (out->n && span_trim(out->l[out->n - 1]).n == 0)
        out->n--;
    return 0;
}

static bool blank(span l)
{
    return span_trim(l).n == 0;
}

/* Title (not blank), description (any), two blank lines, from line k. */
static bool opens_tidy(const lines *ls, size_t k)
{
    return k + 4 <= ls->n && span_trim(ls->l[k]).n && blank(ls->l[k + 2]) && blank(ls->l[k + 3]);
}

/* A system block from line j on (after blank lines): "Identifier: ", then (after empty
 * lines) a TAB-indented description line. */
static bool system_block_at(const lines *ls, size_t j)
{
    while (j < ls->n && blank(ls->l[j]))
        j++;
    if (j >= ls->n || ls->l[j].p[0] == '\t' || !span_ends_with(span_trim(ls->l[j]), ":"))
        return false;
    for (j++; j < ls->n && ls->l[j].n == 0; j++)
        ;
    return j < ls->n && ls->l[j].p[0] == '\t';
}

/* A page that does not open with its heading is tidy only when a heading followed by a
 * system block comes later: that anchor is what tells the page's title from the lines
 * before it (PTS prints "No Internet Connectivity" there, on the same standard output). */
bool ti_tidy_start(const lines *ls, size_t *start)
{
    for (size_t k = 0; k + 4 <= ls->n; k++)
        if (opens_tidy(ls, k) && (k == 0 || system_block_at(ls, k + 4))) {
            *start = k;
            return true;
        }
    return false;
}

int ti_parse_tidy(const lines *ls, size_t start, page *pg, char *err, size_t errlen)
{
    char ex[64];
    size_t i = start + 4, n = ls->n;
    pg->title = span_trim(ls->l[start]);
    pg->description = span_trim(ls->l[start + 1]);

    /* Systems: "Identifier: " then tab-indented description lines. */
    while (i < n) {
        while (i < n && blank(ls->l[i]))
            i++;
        if (i >= n)
            break;
        span l = ls->l[i];
        span t = span_trim(l);
        if (l.p[0] == '\t' || !span_ends_with(t, ":"))
            break;
        system_text *s = ti_add_system_text(pg);
        if (!s)
            return -ENOMEM;
        s->ident = span_trim(span_make(t.p, t.n - 1));
        if (!s->ident.n)
            return page_fail(err, errlen, "line %zu: empty identifier", i + 1);
        i++;
        bool have_hw = false;
        for (;;) {
            size_t j = i;
            while (j < n && blank(ls->l[j]) && ls->l[j].n == 0)
                j++;
            if (j >= n || ls->l[j].n == 0 || ls->l[j].p[0] != '\t')
                break;
            span d = span_make(ls->l[j].p + 1, ls->l[j].n - 1);
            if (!have_hw && !span_starts_with(span_trim(d), "OS:")) {
                s->hardware = d;
                have_hw = true;
            } else {
                if (s->software.p)
                    return page_fail(err, errlen, "line %zu: a third description line for '%s'", j + 1,
                                     ti_excerpt(s->ident, ex, sizeof ex));
                s->software = d;
                have_hw = true;
            }
            i = j + 1;
        }
    }

    /* Results: title line, option line (optional), direction line, rows up to a blank line. */
    while (i < n) {
        while (i < n && blank(ls->l[i]))
            i++;
        if (i >= n)
            break;
        result_text *r = ti_add_result(pg);
        if (!r)
            return -ENOMEM;
        r->line = i + 1;
        r->title_line = span_trim(ls->l[i++]);
        if (i < n && ti_parse_direction_line(ls->l[i], &r->unit, &r->dir)) {
            r->options = span_make(ls->l[i].p, 0);
            i++;
        } else {
            if (i < n)
                r->options = span_trim(ls->l[i++]);
            /* PTS: a test without figure or scale is its title and option line alone */
            if (i >= n || blank(ls->l[i]))
                continue;
            if (!ti_parse_direction_line(ls->l[i], &r->unit, &r->dir))
                return page_fail(err, errlen, "line %zu: expected '<Unit> > Higher Is Better' or "
                                 "'<Unit> < Lower Is Better' after result '%s'", i + 1,
                                 ti_excerpt(r->title_line, ex, sizeof ex));
            i++;
        }
        for (; i < n && !blank(ls->l[i]); i++) {
            span l = ls->l[i];
            while (l.n && l.p[l.n - 1] == ' ')
                l.n--;
            span t = span_trim(l);
            if (r->n_rows && span_eq(t, SB_NOISY_LEGEND)) {
                r->noisy_legend = true;
                continue;
            }
            span se;
            size_t se_n, se_len = ti_parse_se(t, &se, &se_n);
            if (se_len && !r->n_legends && !r->noisy_legend) {
                /* under its row; " !" (the noisy mark) may end it */
                span after = span_trim(span_make(t.p + se_len, t.n - se_len));
                row *last = r->n_rows ? &r->rows[r->n_rows - 1] : NULL;
                if (!last || last->se.n || !se_n || (after.n && !span_eq(after, SB_NOISY_MARK)))
                    return page_fail(err, errlen, "line %zu: an SE line that is not under a row or not "
                                     "'SE +/- x, N = n': '%s'", i + 1, ti_excerpt(t, ex, sizeof ex));
                last->se = se;
                last->se_n = se_n;
                continue;
            }
            legend lg;
            if (r->n_rows && !r->noisy_legend && ti_parse_legend_line(l, &lg)) {
                int rc = ti_add_legend(r, lg);
                if (rc)
                    return rc;
                continue;
            }
            if (r->n_legends || r->noisy_legend)
                return page_fail(err, errlen, "line %zu: a result row after the legend: '%s'", i + 1,
                                 ti_excerpt(l, ex, sizeof ex));
            size_t at, bars = 0;
            span value = {0};
            size_t tail = 0;
            for (at = 1; at < l.n; at++)
                if ((tail = ti_row_tail_at(l, at, &value, &bars)) && at + tail == l.n)
                    break;
            if (at >= l.n)
                return page_fail(err, errlen, "line %zu: not a result row: '%s'", i + 1,
                                 ti_excerpt(l, ex, sizeof ex));
            int rc = ti_add_row(r, span_make(l.p, at), value, bars, i + 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}
