/*
 * import_pts — reads a result page in the seed text format (what
 * sb_report_text() writes) back into the model. Two layouts:
 *
 *  - tidy (seed 001): line structure intact. Title and description are the
 *    first two lines, each system is "Identifier: " + tab-indented hardware
 *    and software lines, each result is title+version / option line /
 *    "Unit > Higher Is Better" / rows. Everything is read exactly.
 *  - flattened (seed 000): every run of whitespace became one space, the
 *    whole page is one line. It is read by anchors that survive flattening:
 *    the " > Higher Is Better" / " < Lower Is Better" phrases end every
 *    result header; a row ends with " <dots> <value> |<bars>", so rows and
 *    their identifiers are exact, and the text after a result's last bar is
 *    the next result's header; a system begins at "<identifier>: Processor: "
 *    where the identifier is one of those the rows named. What flattening
 *    really lost (where the title ends and the description starts, where the
 *    last system's last value ends and the first result's title starts, the
 *    boundary between an option line and a multi-word unit) is recovered by
 *    the heuristics docs/text-format.md lists.
 *
 * Imported figures carry only what the page shows: mean = the printed value,
 * decimals as printed, no runs, no spread.
 */
#include "results/import_pts.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/titles.h"

/* Units with a space in them: in a flattened page "the last word" would cut them. */
static const char *const multiword_units[] = {
    "Frames Per Second",     "Requests Per Second", "Transactions Per Second",
    "Operations Per Second", "Files Per Second",    "Iterations Per Minute",
};

static const char HIGHER[] = "> Higher Is Better";
static const char LOWER[] = "< Lower Is Better";

/* ---------------------------------------------------------------- helpers */

typedef struct span {
    const char *p;
    size_t n;
} span;

static span mkspan(const char *p, size_t n)
{
    return (span){p, n};
}

static span trim(span s)
{
    while (s.n && isspace((unsigned char)s.p[0])) {
        s.p++;
        s.n--;
    }
    while (s.n && isspace((unsigned char)s.p[s.n - 1]))
        s.n--;
    return s;
}

static char *sdup(span s)
{
    char *r = malloc(s.n + 1);
    if (!r)
        return NULL;
    memcpy(r, s.p, s.n);
    r[s.n] = '\0';
    return r;
}

static bool span_eq(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n == n && !memcmp(s.p, lit, n);
}

static bool starts_with(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && !memcmp(s.p, lit, n);
}

static bool ends_with(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && !memcmp(s.p + s.n - n, lit, n);
}

/* First occurrence of lit in s at or after 'from', or -1. */
static long span_find(span s, size_t from, const char *lit)
{
    size_t n = strlen(lit);
    for (size_t i = from; i + n <= s.n; i++)
        if (!memcmp(s.p + i, lit, n))
            return (long)i;
    return -1;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

/* A short, printable excerpt of s for error messages. */
static const char *excerpt(span s, char *buf, size_t len)
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
static bool is_version(span t)
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

static bool has_digit(span t)
{
    for (size_t i = 0; i < t.n; i++)
        if (isdigit((unsigned char)t.p[i]))
            return true;
    return false;
}

/* Length of a "Key:" at s (1 to 3 words, each starting with an upper-case letter or a digit,
 * then letters, digits, '-', '/', '_'), followed by ':' and a space or the end; 0 if none. */
static size_t key_at(span s)
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
static int parse_kvlist(span s, sb_kvlist *l)
{
    s = trim(s);
    size_t start = 0;
    while (start < s.n) {
        size_t end = s.n, next = s.n;
        for (size_t i = start; i + 2 < s.n; i++) {
            if (s.p[i] == ',' && s.p[i + 1] == ' ' && key_at(mkspan(s.p + i + 2, s.n - i - 2))) {
                end = i;
                next = i + 2;
                break;
            }
        }
        span piece = mkspan(s.p + start, end - start);
        size_t k = key_at(piece);
        char *key, *value;
        if (k) {
            key = sdup(mkspan(piece.p, k));
            value = sdup(trim(mkspan(piece.p + k + 1, piece.n - k - 1)));
        } else {
            key = strdup("");
            value = sdup(trim(piece));
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

/* A row's tail at s.p[at]: " <dots> <value> <spaces>|<=...>" ending at the end of s or
 * before a space. On a match returns the length of the tail and the value's span. */
static size_t row_tail_at(span s, size_t at, span *value, size_t *bars)
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
    size_t vend = i;
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
    *value = mkspan(s.p + v, vend - v);
    *bars = i - bar;
    return i - at;
}

typedef struct row {
    span ident;
    span value;
    size_t bars; /* '=' after the '|' */
    size_t line; /* 1-based line of a tidy page; 0 in a flattened one */
} row;

/* A legend line under a chart whose figures come from several sources:
 * "[k] imported: <source>" or "[k] measured: <source>"; rows are then marked " [k]". */
typedef struct legend {
    unsigned long k;
    span source;
} legend;

typedef struct result_text {
    size_t line;  /* of the title (tidy) or of the direction line; 0 when flattened */
    span header;  /* flattened: "<Title> <version> <options> <Unit>"; tidy: unused */
    span title_line, options, unit;
    sb_direction dir;
    row *rows;
    size_t n_rows;
    legend *legends; /* tidy layout only */
    size_t n_legends;
} result_text;

typedef struct system_text {
    span ident, hardware, software;
} system_text;

typedef struct page {
    span title, description, heading; /* heading: flattened title + description together */
    system_text *systems;
    size_t n_systems;
    result_text *results;
    size_t n_results;
} page;

static void page_free(page *pg)
{
    for (size_t i = 0; i < pg->n_results; i++) {
        free(pg->results[i].rows);
        free(pg->results[i].legends);
    }
    free(pg->results);
    free(pg->systems);
    memset(pg, 0, sizeof *pg);
}

static int add_row(result_text *r, span ident, span value, size_t bars, size_t line)
{
    /* Grown geometrically: a long page has thousands of rows. */
    if ((r->n_rows & (r->n_rows - 1)) == 0) {
        row *n = realloc(r->rows, (r->n_rows ? 2 * r->n_rows : 1) * sizeof *n);
        if (!n)
            return -ENOMEM;
        r->rows = n;
    }
    r->rows[r->n_rows++] = (row){ident, value, bars, line};
    return 0;
}

/* "[k] imported: X" / "[k] measured: X" -> k and X. */
static bool parse_legend_line(span l, legend *out)
{
    l = trim(l);
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
            out->source = trim(mkspan(l.p + i + n, l.n - i - n));
            return k > 0 && out->source.n > 0;
        }
    }
    return false;
}

static int add_legend(result_text *r, legend lg)
{
    legend *n = realloc(r->legends, (r->n_legends + 1) * sizeof *n);
    if (!n)
        return -ENOMEM;
    r->legends = n;
    r->legends[r->n_legends++] = lg;
    return 0;
}

static result_text *add_result(page *pg)
{
    result_text *n = realloc(pg->results, (pg->n_results + 1) * sizeof *n);
    if (!n)
        return NULL;
    pg->results = n;
    result_text *r = &pg->results[pg->n_results++];
    memset(r, 0, sizeof *r);
    return r;
}

static system_text *add_system_text(page *pg)
{
    system_text *n = realloc(pg->systems, (pg->n_systems + 1) * sizeof *n);
    if (!n)
        return NULL;
    pg->systems = n;
    system_text *s = &pg->systems[pg->n_systems++];
    memset(s, 0, sizeof *s);
    return s;
}

/* "<Unit> > Higher Is Better" */
static bool parse_direction_line(span l, span *unit, sb_direction *dir)
{
    l = trim(l);
    const char *phrase;
    if (ends_with(l, HIGHER)) {
        phrase = HIGHER;
        *dir = SB_HIGHER_IS_BETTER;
    } else if (ends_with(l, LOWER)) {
        phrase = LOWER;
        *dir = SB_LOWER_IS_BETTER;
    } else {
        return false;
    }
    *unit = trim(mkspan(l.p, l.n - strlen(phrase)));
    return true;
}

/* ---------------------------------------------------------------- tidy layout */

typedef struct lines {
    span *l;
    size_t n;
} lines;

static int split_lines(span text, lines *out)
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
        span l = mkspan(text.p + start, i - start);
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
    while (out->n && trim(out->l[out->n - 1]).n == 0)
        out->n--;
    return 0;
}

static bool blank(span l)
{
    return trim(l).n == 0;
}

static bool tidy_layout(const lines *ls)
{
    return ls->n >= 4 && trim(ls->l[0]).n && blank(ls->l[2]) && blank(ls->l[3]);
}

static int parse_tidy(const lines *ls, page *pg, char *err, size_t errlen)
{
    char ex[64];
    size_t i = 4, n = ls->n;
    pg->title = trim(ls->l[0]);
    pg->description = trim(ls->l[1]);

    /* Systems: "Identifier: " then tab-indented description lines. */
    while (i < n) {
        while (i < n && blank(ls->l[i]))
            i++;
        if (i >= n)
            break;
        span l = ls->l[i];
        span t = trim(l);
        if (l.p[0] == '\t' || !ends_with(t, ":"))
            break;
        system_text *s = add_system_text(pg);
        if (!s)
            return -ENOMEM;
        s->ident = trim(mkspan(t.p, t.n - 1));
        if (!s->ident.n)
            return fail(err, errlen, "line %zu: empty identifier", i + 1);
        i++;
        bool have_hw = false;
        for (;;) {
            size_t j = i;
            while (j < n && blank(ls->l[j]) && ls->l[j].n == 0)
                j++;
            if (j >= n || ls->l[j].n == 0 || ls->l[j].p[0] != '\t')
                break;
            span d = mkspan(ls->l[j].p + 1, ls->l[j].n - 1);
            if (!have_hw && !starts_with(trim(d), "OS:")) {
                s->hardware = d;
                have_hw = true;
            } else {
                if (s->software.p)
                    return fail(err, errlen, "line %zu: a third description line for '%s'", j + 1,
                                excerpt(s->ident, ex, sizeof ex));
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
        result_text *r = add_result(pg);
        if (!r)
            return -ENOMEM;
        r->line = i + 1;
        r->title_line = trim(ls->l[i++]);
        if (i < n && parse_direction_line(ls->l[i], &r->unit, &r->dir)) {
            r->options = mkspan(ls->l[i].p, 0);
            i++;
        } else {
            if (i < n)
                r->options = trim(ls->l[i++]);
            if (i >= n || !parse_direction_line(ls->l[i], &r->unit, &r->dir))
                return fail(err, errlen, "line %zu: expected '<Unit> > Higher Is Better' or "
                            "'<Unit> < Lower Is Better' after result '%s'", i + 1,
                            excerpt(r->title_line, ex, sizeof ex));
            i++;
        }
        for (; i < n && !blank(ls->l[i]); i++) {
            span l = ls->l[i];
            while (l.n && l.p[l.n - 1] == ' ')
                l.n--;
            legend lg;
            if (r->n_rows && parse_legend_line(l, &lg)) {
                int rc = add_legend(r, lg);
                if (rc)
                    return rc;
                continue;
            }
            if (r->n_legends)
                return fail(err, errlen, "line %zu: a result row after the legend: '%s'", i + 1,
                            excerpt(l, ex, sizeof ex));
            size_t at, bars = 0;
            span value = {0};
            size_t tail = 0;
            for (at = 1; at < l.n; at++)
                if ((tail = row_tail_at(l, at, &value, &bars)) && at + tail == l.n)
                    break;
            if (at >= l.n)
                return fail(err, errlen, "line %zu: not a result row: '%s'", i + 1,
                            excerpt(l, ex, sizeof ex));
            int rc = add_row(r, mkspan(l.p, at), value, bars, i + 1);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- flattened layout */

/* Every run of whitespace becomes one space; leading and trailing whitespace goes. */
static char *flatten(span text, size_t *len)
{
    char *out = malloc(text.n + 1);
    if (!out)
        return NULL;
    size_t j = 0;
    bool space = false;
    for (size_t i = 0; i < text.n; i++) {
        if (isspace((unsigned char)text.p[i]) || text.p[i] == '\0') {
            space = j > 0;
            continue;
        }
        if (space)
            out[j++] = ' ';
        space = false;
        out[j++] = text.p[i];
    }
    out[j] = '\0';
    *len = j;
    return out;
}

/* Next direction phrase " > Higher Is Better" / " < Lower Is Better" at or after from. */
static long next_phrase(span f, size_t from, size_t *plen, sb_direction *dir)
{
    long h = span_find(f, from, " > Higher Is Better");
    long l = span_find(f, from, " < Lower Is Better");
    if (h < 0 && l < 0)
        return -1;
    if (h >= 0 && (l < 0 || h < l)) {
        *plen = strlen(" > Higher Is Better");
        *dir = SB_HIGHER_IS_BETTER;
        return h;
    }
    *plen = strlen(" < Lower Is Better");
    *dir = SB_LOWER_IS_BETTER;
    return l;
}

/* "<Title> <version>": the version is the last word when it has a digit; else there is none. */
static void split_title_version(span tl, span *title, span *version)
{
    tl = trim(tl);
    *title = tl;
    if (version)
        *version = mkspan(tl.p + tl.n, 0);
    size_t s = tl.n;
    while (s && tl.p[s - 1] != ' ')
        s--;
    if (s && has_digit(mkspan(tl.p + s, tl.n - s))) {
        *title = trim(mkspan(tl.p, s));
        if (version)
            *version = mkspan(tl.p + s, tl.n - s);
    }
}

/* Length of the tag "(storbench TEST)" (TEST a known test, results/titles.c) at h[at], else 0. The tag
 * ends the title line of a figure storbench measured (docs/result-format.md). */
static size_t storbench_tag_at(span h, size_t at, const char **test)
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
static const char *storbench_tag(span tl, span *rest)
{
    *rest = tl;
    for (size_t at = tl.n; at-- > 1;) {
        const char *test = NULL;
        if (tl.p[at] == '(' && tl.p[at - 1] == ' ' && storbench_tag_at(tl, at, &test) == tl.n - at) {
            *rest = trim(mkspan(tl.p, at));
            return test;
        }
    }
    return NULL;
}

/* The known result title (results/titles.c's, or one of a later result on
 * this page) that header text h starts with, followed by a version token. */
static bool known_title_at(span h, const page *pg, span *title)
{
    size_t best = 0, nknown = sb_known_title_count();
    for (size_t k = 0; k < nknown + pg->n_results; k++) {
        span t;
        if (k < nknown)
            t = mkspan(sb_known_title_at(k), strlen(sb_known_title_at(k)));
        else
            split_title_version(pg->results[k - nknown].title_line, &t, NULL);
        if (!t.n || t.n <= best || h.n <= t.n + 1 || memcmp(h.p, t.p, t.n) || h.p[t.n] != ' ')
            continue;
        size_t v = t.n + 1, e = v;
        while (e < h.n && h.p[e] != ' ')
            e++;
        /* a version, or the storbench tag of a figure with no version of its own */
        if (!is_version(mkspan(h.p + v, e - v)) && !storbench_tag_at(h, v, NULL))
            continue;
        best = t.n;
        *title = mkspan(h.p, t.n);
    }
    return best > 0;
}

/* "<Title> <version> <option line> <Unit>" -> title_line ("<Title> <version>"), options, unit.
 * The title ends at a known title or before the first version token; the unit is the last
 * word unless the header ends in a known multi-word unit. */
static void split_flat_header(span h, const page *pg, result_text *r)
{
    h = trim(h);
    r->unit = h;
    for (size_t k = 0; k < sizeof multiword_units / sizeof multiword_units[0]; k++) {
        size_t n = strlen(multiword_units[k]);
        if (h.n >= n && !memcmp(h.p + h.n - n, multiword_units[k], n) &&
            (h.n == n || h.p[h.n - n - 1] == ' ')) {
            r->unit = mkspan(h.p + h.n - n, n);
            break;
        }
    }
    if (r->unit.p == h.p) {
        size_t s = h.n;
        while (s && h.p[s - 1] != ' ')
            s--;
        r->unit = mkspan(h.p + s, h.n - s);
    }
    span rest = trim(mkspan(h.p, (size_t)(r->unit.p - h.p)));

    /* Where does the version token end? */
    size_t vend = 0;
    span known;
    size_t tag;
    if (known_title_at(rest, pg, &known)) {
        vend = known.n + 1;
        if ((tag = storbench_tag_at(rest, vend, NULL)))
            vend += tag; /* "Title (storbench test)" */
        else {
            while (vend < rest.n && rest.p[vend] != ' ')
                vend++;
            if (vend < rest.n && (tag = storbench_tag_at(rest, vend + 1, NULL)))
                vend += 1 + tag; /* "Title 1.2 (storbench test)" */
        }
    } else {
        size_t i = 0;
        while (i < rest.n && rest.p[i] != ' ') /* the title has at least one word */
            i++;
        while (i < rest.n) {
            size_t s = ++i;
            while (i < rest.n && rest.p[i] != ' ')
                i++;
            if (is_version(mkspan(rest.p + s, i - s))) {
                vend = i;
                if (vend < rest.n && (tag = storbench_tag_at(rest, vend + 1, NULL)))
                    vend += 1 + tag;
                break;
            }
        }
        if (!vend) /* no version: the whole rest is the title */
            vend = rest.n;
    }
    r->title_line = mkspan(rest.p, vend);
    r->options = trim(mkspan(rest.p + vend, rest.n - vend));
}

/* Words that may sit inside a title in lower case. */
static bool title_connector(span w)
{
    static const char *const words[] = {"a", "an", "and", "at", "by", "for", "in", "of", "on",
                                        "or", "the", "to", "vs", "vs.", "with", "x"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (span_eq(w, words[i]))
            return true;
    return false;
}

/* Flattening joined the title line and the description. The split: the first word that
 * repeats a word of the title so far (a description tends to open by naming its subject
 * again: "... HDD + SSD Disk Test | SSD abd benchmarks"), provided it comes before the
 * first lower-case prose word; else the word before that prose word; else it is all title. */
static void split_heading(span h, span *title, span *desc)
{
    h = trim(h);
    size_t starts[256];
    size_t nw = 0;
    for (size_t i = 0; i < h.n && nw < 256;) {
        starts[nw++] = i;
        while (i < h.n && h.p[i] != ' ')
            i++;
        i++;
    }
    size_t prose = nw, repeat = nw;
    for (size_t w = 0; w < nw; w++) {
        size_t e = starts[w];
        while (e < h.n && h.p[e] != ' ')
            e++;
        span word = mkspan(h.p + starts[w], e - starts[w]);
        if (prose == nw && islower((unsigned char)word.p[0]) && !title_connector(word))
            prose = w;
        if (repeat == nw && w > 0 && word.n >= 2 && isalpha((unsigned char)word.p[0])) {
            for (size_t v = 0; v < w; v++) {
                size_t ve = starts[v];
                while (ve < h.n && h.p[ve] != ' ')
                    ve++;
                if (ve - starts[v] == word.n && !memcmp(h.p + starts[v], word.p, word.n)) {
                    repeat = w;
                    break;
                }
            }
        }
    }
    size_t split = nw;
    if (repeat < nw && repeat <= prose)
        split = repeat;
    else if (prose < nw && prose >= 2)
        split = prose - 1;
    if (split == 0 || split >= nw) {
        *title = h;
        *desc = mkspan(h.p + h.n, 0);
        return;
    }
    *title = trim(mkspan(h.p, starts[split]));
    *desc = trim(mkspan(h.p + starts[split], h.n - starts[split]));
}

/* Is there a row identifier equal to the text ending at 'end' (preceded by a space or the
 * start)? Returns the longest such identifier's length. */
static size_t known_ident_before(span f, size_t end, const page *pg)
{
    size_t best = 0;
    for (size_t r = 0; r < pg->n_results; r++) {
        for (size_t k = 0; k < pg->results[r].n_rows; k++) {
            span id = pg->results[r].rows[k].ident;
            if (id.n <= best || id.n > end || memcmp(f.p + end - id.n, id.p, id.n))
                continue;
            if (end - id.n > 0 && f.p[end - id.n - 1] != ' ')
                continue;
            best = id.n;
        }
    }
    return best;
}

/* The value of the last "Key: value" of a system ends where the next part begins. Fallback
 * when nothing known marks that point: the value is one word. Returns the offset in s just
 * after that value (s is the text from the last system's body to the end of the part). */
static size_t last_value_end(span s)
{
    size_t last_key = 0;
    for (size_t i = 0; i + 2 < s.n; i++)
        if (s.p[i] == ',' && s.p[i + 1] == ' ' && key_at(mkspan(s.p + i + 2, s.n - i - 2)))
            last_key = i + 2;
    size_t k = key_at(mkspan(s.p + last_key, s.n - last_key));
    size_t i = last_key + k + 2; /* after "Key: " */
    while (i < s.n && s.p[i] != ' ')
        i++;
    return i < s.n ? i : s.n;
}

/* A source legend ("[k] imported: ..." after a chart's last bar) cannot be told from the
 * next chart's title once whitespace is flattened. */
static bool flat_has_legend(span f)
{
    for (size_t i = 0; i + 3 < f.n; i++) {
        if (f.p[i] != '|' && f.p[i] != '=')
            continue;
        if (f.p[i + 1] != ' ' || f.p[i + 2] != '[')
            continue;
        legend lg;
        if (parse_legend_line(mkspan(f.p + i + 2, f.n - i - 2), &lg))
            return true;
    }
    return false;
}

static int parse_flat(span f, page *pg, char *err, size_t errlen)
{
    char ex[64];

    if (flat_has_legend(f))
        return fail(err, errlen, "a chart with a source legend ('[1] imported: ...') reads only "
                    "with its line breaks (as 'storbench show' wrote it)");

    /* 1. Results: direction phrases, then the rows after each; the text after the last
     *    row is the next result's header. */
    size_t plen = 0;
    sb_direction dir;
    long first = next_phrase(f, 0, &plen, &dir);
    size_t prefix_end = first < 0 ? f.n : (size_t)first;
    long at = first;
    span pending = {0}; /* the header of the result about to be read (after the previous rows) */
    while (at >= 0) {
        result_text *r = add_result(pg);
        if (!r)
            return -ENOMEM;
        r->dir = dir;
        r->header = pending;
        size_t pos = (size_t)at + plen;
        sb_direction ndir = dir;
        long nxt = next_phrase(f, pos, &plen, &ndir);
        span region = mkspan(f.p, nxt < 0 ? f.n : (size_t)nxt);
        for (;;) {
            if (pos < region.n && f.p[pos] == ' ')
                pos++;
            if (pos >= region.n)
                break;
            size_t p, tail = 0, bars = 0;
            span value;
            for (p = pos + 1; p < region.n; p++)
                if ((tail = row_tail_at(region, p, &value, &bars)))
                    break;
            if (p >= region.n)
                break;
            int rc = add_row(r, mkspan(f.p + pos, p - pos), value, bars, 0);
            if (rc)
                return rc;
            pos = p + tail;
        }
        span rest = trim(mkspan(f.p + pos, region.n - pos));
        if (nxt < 0 && rest.n)
            return fail(err, errlen, "unexpected text after the last result: '%s'",
                        excerpt(rest, ex, sizeof ex));
        if (nxt >= 0 && !rest.n)
            return fail(err, errlen, "a result with no title before '%s'",
                        excerpt(mkspan(f.p + nxt, f.n - (size_t)nxt), ex, sizeof ex));
        pending = rest;
        dir = ndir;
        at = nxt;
    }

    /* Headers of results 2.. are exact: split them first, so their titles are known. */
    for (size_t k = 1; k < pg->n_results; k++)
        split_flat_header(pg->results[k].header, pg, &pg->results[k]);

    /* 2. Systems: "<identifier>: Processor: ..." in the text before the first phrase. */
    span prefix = mkspan(f.p, prefix_end);
    size_t body_prev = 0; /* where the previous system's body starts */
    size_t heading_end = prefix.n;
    long m = span_find(prefix, 0, ": Processor: ");
    while (m >= 0) {
        size_t idn = known_ident_before(prefix, (size_t)m, pg);
        if (!idn || (size_t)m - idn < body_prev) {
            /* Not named by any row: take the single word before the colon. */
            size_t s = (size_t)m;
            while (s > body_prev && prefix.p[s - 1] != ' ')
                s--;
            idn = (size_t)m - s;
        }
        size_t id_start = (size_t)m - idn;
        if (!idn)
            return fail(err, errlen, "a system with no identifier before ': Processor:'");
        if (pg->n_systems) {
            system_text *prev = &pg->systems[pg->n_systems - 1];
            prev->hardware = mkspan(prev->hardware.p, id_start - (size_t)(prev->hardware.p - prefix.p));
        } else {
            heading_end = id_start;
        }
        system_text *s = add_system_text(pg);
        if (!s)
            return -ENOMEM;
        s->ident = mkspan(prefix.p + id_start, idn);
        body_prev = (size_t)m + 2;
        s->hardware = mkspan(prefix.p + body_prev, prefix.n - body_prev);
        m = span_find(prefix, (size_t)m + 2, ": Processor: ");
    }

    /* 3. Where the last system (or the heading, with no system) ends and the first result's
     *    header begins: at the earliest known title followed by a version, else after the
     *    last system's last value. */
    if (pg->n_results) {
        size_t from = pg->n_systems ? body_prev : 0;
        span tail = mkspan(prefix.p + from, prefix.n - from);
        size_t hstart = tail.n;
        /* Not inside the hardware list: start looking at the software part. */
        long os = pg->n_systems ? span_find(tail, 0, " OS: ") : -1;
        for (size_t i = os > 0 ? (size_t)os : 0; i < tail.n; i++) {
            if (i && tail.p[i - 1] != ' ')
                continue;
            span t;
            if (known_title_at(mkspan(tail.p + i, tail.n - i), pg, &t)) {
                hstart = i;
                break;
            }
        }
        if (hstart == tail.n) {
            if (pg->n_systems) {
                hstart = last_value_end(tail);
            } else {
                /* No system and no known title: the header starts at the word before the
                 * first version token. */
                size_t i = 0, prev = 0;
                hstart = 0;
                while (i < tail.n) {
                    size_t s = i;
                    while (i < tail.n && tail.p[i] != ' ')
                        i++;
                    if (s && is_version(mkspan(tail.p + s, i - s))) {
                        hstart = prev;
                        break;
                    }
                    prev = s;
                    i++;
                }
            }
        }
        pg->results[0].header = mkspan(tail.p + hstart, tail.n - hstart);
        if (pg->n_systems) {
            system_text *last = &pg->systems[pg->n_systems - 1];
            last->hardware = mkspan(last->hardware.p, (size_t)(tail.p + hstart - last->hardware.p));
        } else {
            heading_end = from + hstart;
        }
        split_flat_header(pg->results[0].header, pg, &pg->results[0]);
    }

    /* 4. Each system's body splits into hardware and software at "OS: ". */
    for (size_t i = 0; i < pg->n_systems; i++) {
        system_text *s = &pg->systems[i];
        span body = trim(s->hardware);
        long os = starts_with(body, "OS: ") ? 0 : span_find(body, 0, " OS: ");
        if (os < 0) {
            s->hardware = body;
            s->software = mkspan(body.p + body.n, 0);
        } else {
            s->hardware = trim(mkspan(body.p, (size_t)os));
            s->software = trim(mkspan(body.p + os, body.n - (size_t)os));
        }
    }

    pg->heading = trim(mkspan(f.p, heading_end));
    split_heading(pg->heading, &pg->title, &pg->description);
    return 0;
}

/* ---------------------------------------------------------------- into the model */

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

/* What a page that was cut short or edited by hand shows: a result without rows, a value
 * that is no finite number, an identifier that swallowed a row (flattened), a bar that
 * does not match its value (the last line cut inside its bar). Checked before anything
 * is built, so that such a page is refused instead of imported with a figure lost. */
static int check_rows(const result_text *rt, char *err, size_t errlen)
{
    char ex[64], ln[32];
    if (!rt->n_rows)
        return fail(err, errlen, "%sresult '%s' has no rows (is the page cut short?)",
                    at_line(rt->line, ln, sizeof ln), excerpt(trim(rt->title_line), ex, sizeof ex));
    double max = 0;
    size_t maxbars = 0;
    for (size_t k = 0; k < rt->n_rows; k++) {
        const row *rw = &rt->rows[k];
        char num[64];
        if (rw->value.n >= sizeof num)
            return fail(err, errlen, "%svalue of '%s' has %zu digits: out of range",
                        at_line(rw->line, ln, sizeof ln), excerpt(trim(rw->ident), ex, sizeof ex),
                        rw->value.n);
        memcpy(num, rw->value.p, rw->value.n);
        num[rw->value.n] = '\0';
        double v = strtod(num, NULL);
        if (!isfinite(v))
            return fail(err, errlen, "%svalue '%s' is out of range", at_line(rw->line, ln, sizeof ln),
                        num);
        if (!rw->line && memmem(rw->ident.p, rw->ident.n, " |", 2))
            return fail(err, errlen, "not a result row: '%s'", excerpt(rw->ident, ex, sizeof ex));
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
        if (fabs(want - (double)rw->bars) > 1.5)
            return fail(err, errlen, "%sthe bar of '%s' does not match its value %.*s (is the page "
                        "cut short?)", at_line(rw->line, ln, sizeof ln),
                        excerpt(trim(rw->ident), ex, sizeof ex), (int)rw->value.n, rw->value.p);
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
            *ident = trim(mkspan(id.p, m - 2));
            return &rt->legends[j];
        }
    return NULL;
}

static int build(const page *pg, sb_resultfile *rf, char *err, size_t errlen)
{
    char ex[64], ex2[64];
    int rc = -ENOMEM;
    char *a = NULL, *b = NULL, *c = NULL, *d = NULL;

    if (!pg->n_results)
        return fail(err, errlen, "no results: no '<Unit> > Higher Is Better' line with rows "
                    "(is the page cut short?)");
    for (size_t i = 0; i < pg->n_results; i++)
        if ((rc = check_rows(&pg->results[i], err, errlen)) < 0)
            return rc;
    rc = -ENOMEM;

    if (!(a = sdup(pg->title)) || !(b = sdup(pg->description)))
        goto out;
    sb_resultfile_set_title(rf, a, b);
    free(a);
    free(b);
    a = b = NULL;

    for (size_t i = 0; i < pg->n_systems; i++) {
        const system_text *st = &pg->systems[i];
        if (!(a = sdup(st->ident)))
            goto out;
        if (sb_resultfile_find_system(rf, a)) {
            rc = fail(err, errlen, "identifier '%s' appears twice", a);
            goto out;
        }
        sb_system *s = new_system(rf, a);
        free(a);
        a = NULL;
        if (!s)
            goto out;
        if ((rc = parse_kvlist(st->hardware, &s->hardware)) ||
            (rc = parse_kvlist(st->software, &s->software)))
            goto out;
    }

    for (size_t i = 0; i < pg->n_results; i++) {
        const result_text *rt = &pg->results[i];
        span tl = trim(rt->title_line), title, version, untagged;
        const char *tagged = storbench_tag(tl, &untagged);
        split_title_version(untagged, &title, &version);
        if (!title.n) {
            rc = fail(err, errlen, "a result with no title");
            goto out;
        }
        if (!rt->unit.n) {
            rc = fail(err, errlen, "result '%s' has no unit", excerpt(tl, ex, sizeof ex));
            goto out;
        }
        if (!(a = sdup(title)) || !(b = sdup(version)) || !(c = sdup(rt->options)) ||
            !(d = sdup(rt->unit)))
            goto out;
        sb_result *r = sb_resultfile_get_result(rf, tagged ? tagged : test_for_title(a), a, b, c, d,
                                                rt->dir);
        free(a);
        free(b);
        free(c);
        free(d);
        a = b = c = d = NULL;
        if (!r)
            goto out;
        for (size_t k = 0; k < rt->n_rows; k++) {
            const row *rw = &rt->rows[k];
            /* The row's source: its legend entry (the row is marked " [k]"), else the title
             * line. Every figure read from a page is imported. */
            span ident = trim(rw->ident), source = tl;
            if (rt->n_legends) {
                const legend *lg = row_legend(rt, &ident);
                if (!lg) {
                    rc = fail(err, errlen, "a row of '%s' has no legend mark: '%s'",
                              excerpt(tl, ex, sizeof ex), excerpt(ident, ex2, sizeof ex2));
                    goto out;
                }
                source = lg->source;
            }
            if (!(a = sdup(ident)) || !(b = sdup(rw->value)))
                goto out;
            if (!*a) {
                rc = fail(err, errlen, "a row of '%s' has no identifier", excerpt(tl, ex, sizeof ex));
                goto out;
            }
            if (sb_result_find_entry(r, a)) {
                rc = fail(err, errlen, "'%s' has two rows in result '%s'", a,
                          excerpt(tl, ex, sizeof ex));
                goto out;
            }
            /* A row naming no listed system still counts: the system gets an empty description. */
            if (!sb_resultfile_find_system(rf, a) && !new_system(rf, a))
                goto out;
            sb_entry *e = sb_result_add_entry(r, a);
            if (!e)
                goto out;
            free(a);
            if (!(a = sdup(source)))
                goto out;
            sb_entry_set_source(e, a, true);
            e->mean = strtod(b, NULL);
            e->sd = 0;
            e->se = 0;
            const char *dot = strchr(b, '.');
            e->decimals = dot ? (int)strlen(dot + 1) : 0;
            free(a);
            free(b);
            a = b = NULL;
        }
    }
    rc = 0;
out:
    free(a);
    free(b);
    free(c);
    free(d);
    if (rc == -ENOMEM && err && errlen)
        snprintf(err, errlen, "out of memory");
    return rc;
}

int sb_import_pts(const char *text, size_t len, sb_resultfile *rf, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    span t = mkspan(text, len);
    if (memchr(text, '\0', len))
        return fail(err, errlen, "not a result page: the file contains NUL bytes");
    /* A result file holds UTF-8 only (JSON): a Latin-1 byte would make the save drop the
     * system or result it is in. Refused here, where the line can be named. */
    size_t bad = sb_utf8_check(text, len);
    if (bad < len) {
        size_t line = 1;
        for (size_t i = 0; i < bad; i++)
            line += text[i] == '\n';
        return fail(err, errlen, "line %zu: byte 0x%02x is not UTF-8 (convert the page, e.g. "
                    "with iconv -f latin1 -t utf-8)", line, (unsigned char)text[bad]);
    }

    page pg = {0};
    lines ls = {0};
    int rc = split_lines(t, &ls);
    if (rc)
        goto out;
    if (tidy_layout(&ls)) {
        /* Lines intact: read line by line, and a line that is wrong is refused with its
         * number (reading it as a flattened page would turn it into a fake identifier). */
        char terr[256] = "";
        rc = parse_tidy(&ls, &pg, terr, sizeof terr);
        if (rc == 0)
            rc = build(&pg, rf, err, errlen);
        else if (rc == -EINVAL)
            fail(err, errlen, "not a result page: %s", terr);
        goto out;
    }
    size_t flen;
    char *flat = flatten(t, &flen);
    if (!flat) {
        rc = -ENOMEM;
        goto out;
    }
    char ferr[256] = "";
    rc = parse_flat(mkspan(flat, flen), &pg, ferr, sizeof ferr);
    if (rc == 0 && !pg.n_systems && !pg.n_results)
        rc = fail(ferr, sizeof ferr, "no system description and no '<Unit> > Higher Is Better' result");
    if (rc == 0)
        rc = build(&pg, rf, err, errlen);
    else if (rc == -EINVAL)
        fail(err, errlen, "not a result page: %s", ferr);
    free(flat);
out:
    page_free(&pg);
    free(ls.l);
    if (rc == -ENOMEM && err && errlen)
        snprintf(err, errlen, "out of memory");
    return rc;
}
