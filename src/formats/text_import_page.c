/*
 * text_import_page — the helpers of the text-format reader (text_import.c): the small
 * token tests both layouts use on spans of the page text (formats/span.h: versions, "Key:" lists,
 * a row's " .... value |===" tail, the storbench tag of a title line), and the page
 * model the layout parsers fill (text_import_page.h).
 */
#include "formats/text_import_page.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/page_marks.h"
#include "results/titles.h"

static const char HIGHER[] = "> Higher Is Better";
static const char LOWER[] = "< Lower Is Better";

/* ---------------------------------------------------------------- helpers */

/* A short, printable excerpt of s for error messages. */
const char *ti_excerpt(span s, char *buf, size_t len)
{
    size_t n = s.n < 40 ? s.n : 40;
    size_t j = 0;
    for (size_t i = 0; i < n && j + 1 < len; i++)
        buf[j++] = isprint((unsigned char)s.p[i]) ? s.p[i] : ' ';
    buf[j] = '\0';
    if (s.n > n && j + 4 < len)
        strcpy(buf + j, "...");
    return buf;
}

/* A version token: a digit (optionally after 'v'), then digits, letters, '.', '-', with a '.'. */
bool ti_is_version(span t)
{
    size_t i = 0;
    if (t.n && (t.p[0] == 'v' || t.p[0] == 'V'))
        i = 1;
    if (i >= t.n || !isdigit((unsigned char)t.p[i]))
        return false;
    bool dot = false;
    for (; i < t.n; i++) {
        char c = t.p[i];
        if (c == '.')
            dot = true;
        else if (!isalnum((unsigned char)c) && c != '-' && c != '_' && c != '+')
            return false;
    }
    return dot && t.p[t.n - 1] != '.';
}

bool ti_has_digit(span t)
{
    for (size_t i = 0; i < t.n; i++)
        if (isdigit((unsigned char)t.p[i]))
            return true;
    return false;
}

/* Length of a "Key:" at s (1 to 3 words, each starting with an upper-case letter or a digit,
 * then letters, digits, '-', '/', '_'), followed by ':' and a space or the end; 0 if none. */
size_t ti_key_at(span s)
{
    size_t i = 0;
    for (int word = 0; word < 3; word++) {
        if (i >= s.n || !(isupper((unsigned char)s.p[i]) || isdigit((unsigned char)s.p[i])))
            return 0;
        while (i < s.n && (isalnum((unsigned char)s.p[i]) || strchr("-/_", s.p[i])))
            i++;
        if (i < s.n && s.p[i] == ':' && (i + 1 == s.n || s.p[i + 1] == ' '))
            return i;
        if (i >= s.n || s.p[i] != ' ')
            return 0;
        i++;
    }
    return 0;
}

/* "Key: value, Key: value": splits at ", " followed by a Key:. A piece without "Key:" keeps
 * the whole piece as its value under an empty key. */
int ti_parse_kvlist(span s, sb_kvlist *l)
{
    s = span_trim(s);
    size_t start = 0;
    while (start < s.n) {
        size_t end = s.n, next = s.n;
        for (size_t i = start; i + 2 < s.n; i++) {
            if (s.p[i] == ',' && s.p[i + 1] == ' ' && ti_key_at(span_make(s.p + i + 2, s.n - i - 2))) {
                end = i;
                next = i + 2;
                break;
            }
        }
        span piece = span_make(s.p + start, end - start);
        size_t k = ti_key_at(piece);
        char *key, *value;
        if (k) {
            key = span_sdup(span_make(piece.p, k));
            value = span_sdup(span_trim(span_make(piece.p + k + 1, piece.n - k - 1)));
        } else {
            key = strdup("");
            value = span_sdup(span_trim(piece));
        }
        if (!key || !value) {
            free(key);
            free(value);
            return -ENOMEM;
        }
        sb_kvlist_add(l, key, value);
        free(key);
        free(value);
        start = next;
    }
    return 0;
}

/* ---------------------------------------------------------------- rows */

/* The length of a row's value at s.p[i]: a number ("-12", "67.63") or the mark of a row
 * without a figure (SB_NOT_RUN_MARK); 0 when there is neither. */
static size_t row_value_len(span s, size_t i)
{
    static const char not_run[] = SB_NOT_RUN_MARK;
    if (s.n - i >= sizeof not_run - 1 && !memcmp(s.p + i, not_run, sizeof not_run - 1))
        return sizeof not_run - 1;
    size_t v = i;
    if (i < s.n && s.p[i] == '-')
        i++;
    size_t digits = i;
    while (i < s.n && isdigit((unsigned char)s.p[i]))
        i++;
    if (i == digits)
        return 0;
    if (i < s.n && s.p[i] == '.') {
        size_t frac = ++i;
        while (i < s.n && isdigit((unsigned char)s.p[i]))
            i++;
        if (i == frac)
            return 0;
    }
    return i - v;
}

/* A row's tail at s.p[at]: " <dots> <value> <spaces>|<=...>" ending at the end of s or
 * before a space. On a match returns the length of the tail and the value's span (the
 * value of a row without a figure is SB_NOT_RUN_MARK, its bar empty). */
size_t ti_row_tail_at(span s, size_t at, span *value, size_t *bars)
{
    size_t i = at;
    if (i >= s.n || s.p[i] != ' ')
        return 0;
    i++;
    size_t dots = i;
    while (i < s.n && s.p[i] == '.')
        i++;
    if (i == dots || i >= s.n || s.p[i] != ' ')
        return 0;
    i++;
    size_t v = i, vn = row_value_len(s, i);
    if (!vn)
        return 0;
    i += vn;
    while (i < s.n && s.p[i] == ' ')
        i++;
    if (i >= s.n || s.p[i] != '|')
        return 0;
    i++;
    size_t bar = i;
    while (i < s.n && s.p[i] == '=')
        i++;
    if (i < s.n && s.p[i] != ' ')
        return 0;
    *value = span_make(s.p + v, vn);
    *bars = i - bar;
    return i - at;
}

/* ---------------------------------------------------------------- the page */

void ti_page_free(page *pg)
{
    for (size_t i = 0; i < pg->n_results; i++) {
        free(pg->results[i].rows);
        free(pg->results[i].legends);
    }
    free(pg->results);
    free(pg->systems);
    memset(pg, 0, sizeof *pg);
}

int ti_add_row(result_text *r, span ident, span value, size_t bars, size_t line)
{
    /* Grown geometrically: a long page has thousands of rows. */
    if ((r->n_rows & (r->n_rows - 1)) == 0) {
        row *n = realloc(r->rows, (r->n_rows ? 2 * r->n_rows : 1) * sizeof *n);
        if (!n)
            return -ENOMEM;
        r->rows = n;
    }
    r->rows[r->n_rows++] = (row){ident, value, bars, line, {0}, 0};
    return 0;
}

size_t ti_parse_se(span s, span *se, size_t *n)
{
    static const char lead[] = "SE +/- ", mid[] = ", N = ";
    size_t i = sizeof lead - 1;
    if (s.n < i || memcmp(s.p, lead, i))
        return 0;
    size_t v = i;
    while (i < s.n && isdigit((unsigned char)s.p[i]))
        i++;
    if (i == v)
        return 0;
    if (i < s.n && s.p[i] == '.') {
        size_t f = ++i;
        while (i < s.n && isdigit((unsigned char)s.p[i]))
            i++;
        if (i == f)
            return 0;
    }
    *se = span_make(s.p + v, i - v);
    if (s.n - i < sizeof mid - 1 || memcmp(s.p + i, mid, sizeof mid - 1))
        return 0;
    i += sizeof mid - 1;
    size_t d = i, count = 0;
    while (i < s.n && isdigit((unsigned char)s.p[i]) && i - d < 9)
        count = count * 10 + (size_t)(s.p[i++] - '0');
    if (i == d || (i < s.n && s.p[i] != ' ' && s.p[i] != '\r'))
        return 0;
    *n = count;
    return i;
}

/* "[k] imported: X" / "[k] measured: X" -> k and X. */
bool ti_parse_legend_line(span l, legend *out)
{
    l = span_trim(l);
    if (l.n < 4 || l.p[0] != '[' || !isdigit((unsigned char)l.p[1]))
        return false;
    size_t i = 1;
    unsigned long k = 0;
    while (i < l.n && isdigit((unsigned char)l.p[i]) && k < 1000000)
        k = k * 10 + (unsigned long)(l.p[i++] - '0');
    static const char *const kinds[] = {"] imported: ", "] measured: "};
    for (size_t j = 0; j < 2; j++) {
        size_t n = strlen(kinds[j]);
        if (l.n - i > n && !memcmp(l.p + i, kinds[j], n)) {
            out->k = k;
            out->source = span_trim(span_make(l.p + i + n, l.n - i - n));
            return k > 0 && out->source.n > 0;
        }
    }
    return false;
}

int ti_add_legend(result_text *r, legend lg)
{
    if ((r->n_legends & (r->n_legends - 1)) == 0) {
        legend *n = realloc(r->legends, (r->n_legends ? 2 * r->n_legends : 1) * sizeof *n);
        if (!n)
            return -ENOMEM;
        r->legends = n;
    }
    r->legends[r->n_legends++] = lg;
    return 0;
}

result_text *ti_add_result(page *pg)
{
    /* Grown geometrically, as the rows: a page may hold a result every few bytes. */
    if ((pg->n_results & (pg->n_results - 1)) == 0) {
        result_text *n = realloc(pg->results, (pg->n_results ? 2 * pg->n_results : 1) * sizeof *n);
        if (!n)
            return NULL;
        pg->results = n;
    }
    result_text *r = &pg->results[pg->n_results++];
    memset(r, 0, sizeof *r);
    return r;
}

system_text *ti_add_system_text(page *pg)
{
    if ((pg->n_systems & (pg->n_systems - 1)) == 0) {
        system_text *n = realloc(pg->systems, (pg->n_systems ? 2 * pg->n_systems : 1) * sizeof *n);
        if (!n)
            return NULL;
        pg->systems = n;
    }
    system_text *s = &pg->systems[pg->n_systems++];
    memset(s, 0, sizeof *s);
    return s;
}

/* "<Unit> > Higher Is Better" */
bool ti_parse_direction_line(span l, span *unit, sb_direction *dir)
{
    l = span_trim(l);
    const char *phrase;
    if (span_ends_with(l, HIGHER)) {
        phrase = HIGHER;
        *dir = SB_HIGHER_IS_BETTER;
    } else if (span_ends_with(l, LOWER)) {
        phrase = LOWER;
        *dir = SB_LOWER_IS_BETTER;
    } else {
        return false;
    }
    *unit = span_trim(span_make(l.p, l.n - strlen(phrase)));
    return true;
}

/* ---------------------------------------------------------------- title lines */

/* "<Title> <version>": the version is the last word when it has a digit; else there is none. */
void ti_split_title_version(span tl, span *title, span *version)
{
    tl = span_trim(tl);
    *title = tl;
    if (version)
        *version = span_make(tl.p + tl.n, 0);
    size_t s = tl.n;
    while (s && tl.p[s - 1] != ' ')
        s--;
    if (s && ti_has_digit(span_make(tl.p + s, tl.n - s))) {
        *title = span_trim(span_make(tl.p, s));
        if (version)
            *version = span_make(tl.p + s, tl.n - s);
    }
}

/* Length of the tag "(storbench TEST)" (TEST a known test, results/titles.c) at h[at], else 0. The tag
 * ends the title line of a figure storbench measured (docs/result-format.md). */
size_t ti_storbench_tag_at(span h, size_t at, const char **test)
{
    static const char pre[] = "(storbench ";
    size_t np = sizeof pre - 1;
    if (at > h.n || h.n - at <= np || memcmp(h.p + at, pre, np))
        return 0;
    for (size_t i = 0; i < sb_known_title_count(); i++) {
        const char *name = sb_known_title_test(sb_known_title_at(i));
        size_t nn = strlen(name);
        if (h.n - at >= np + nn + 1 && !memcmp(h.p + at + np, name, nn) && h.p[at + np + nn] == ')' &&
            (at + np + nn + 1 == h.n || h.p[at + np + nn + 1] == ' ')) {
            if (test)
                *test = name;
            return np + nn + 1;
        }
    }
    return 0;
}

/* A title line that ends in the storbench tag: its test, and the line without the tag. */
const char *ti_storbench_tag(span tl, span *rest)
{
    *rest = tl;
    for (size_t at = tl.n; at-- > 1;) {
        const char *test = NULL;
        if (tl.p[at] == '(' && tl.p[at - 1] == ' ' && ti_storbench_tag_at(tl, at, &test) == tl.n - at) {
            *rest = span_trim(span_make(tl.p, at));
            return test;
        }
    }
    return NULL;
}
