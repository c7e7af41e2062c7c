/*
 * text_import_flat — reads a page in the flattened layout (seed 000: every run of
 * whitespace became one space, the whole page is one line) by anchors that survive
 * flattening: the " > Higher Is Better" / " < Lower Is Better" phrases end every
 * result header; a row ends with " <dots> <value> |<bars>", so rows and their
 * identifiers are exact, and the text after a result's last bar is the next result's
 * header; a system begins at "<identifier>: Processor: " where the identifier is one
 * of those the rows named. What flattening really lost (where the title ends and the
 * description starts, where the last system's last value ends and the first result's
 * title starts, the boundary between an option line and a multi-word unit) is
 * recovered by the heuristics docs/text-format.md lists.
 */
#include "formats/text_import_page.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/page_marks.h"
#include "results/titles.h"

/* Units with a space in them: in a flattened page "the last word" would cut them. */
static const char *const multiword_units[] = {
    "Frames Per Second",     "Requests Per Second", "Transactions Per Second",
    "Operations Per Second", "Files Per Second",    "Iterations Per Minute",
};

/* Every run of whitespace becomes one space; leading and trailing whitespace goes. */
char *ti_flatten(span text, size_t *len)
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

/* What the reader looks things up in while it scans: the next occurrence of each
 * direction phrase (found once, not once per result: a page of phrases alone would
 * otherwise be read again for every phrase on it), the titles a header may start with,
 * and the rows' identifiers a system's name may end with (text_import_index.c). */
typedef struct flat_state {
    long next_h, next_l;  /* -2: not searched yet */
    size_t from_h, from_l; /* where that search started */
    ti_index titles;      /* forwards: known titles and the titles of results split so far */
    ti_index idents;      /* backwards: every row's identifier */
} flat_state;

/* A title longer than this is no anchor: the scan for titles at every word of a
 * system's last value costs at most this much per word. */
#define FLAT_TITLE_MAX 64

static long phrase_after(span f, size_t from, const char *lit, long *cached, size_t *cfrom)
{
    if (*cached == -2 || from < *cfrom || (*cached >= 0 && (size_t)*cached < from)) {
        *cached = span_find(f, from, lit);
        *cfrom = from;
    }
    return *cached;
}

/* Next direction phrase " > Higher Is Better" / " < Lower Is Better" at or after from. */
static long next_phrase(span f, size_t from, flat_state *st, size_t *plen, sb_direction *dir)
{
    long h = phrase_after(f, from, " > Higher Is Better", &st->next_h, &st->from_h);
    long l = phrase_after(f, from, " < Lower Is Better", &st->next_l, &st->from_l);
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

/* The known result title (results/titles.c's, or one of a result on this page split
 * before) that header text h starts with, followed by a version token. */
static bool known_title_at(span h, const flat_state *st, span *title)
{
    size_t cand[FLAT_TITLE_MAX];
    size_t nc = ti_index_scan(&st->titles, h, 0, cand, FLAT_TITLE_MAX);
    while (nc--) { /* the longest first */
        size_t n = cand[nc];
        if (h.n <= n + 1 || h.p[n] != ' ' || !ti_index_has(&st->titles, h.p, n))
            continue;
        size_t v = n + 1, e = v;
        while (e < h.n && h.p[e] != ' ')
            e++;
        /* a version, or the storbench tag of a figure with no version of its own */
        if (!ti_is_version(span_make(h.p + v, e - v)) && !ti_storbench_tag_at(h, v, NULL))
            continue;
        *title = span_make(h.p, n);
        return true;
    }
    return false;
}

/* "<Title> <version> <option line> <Unit>" -> title_line ("<Title> <version>"), options, unit.
 * The title ends at a known title or before the first version token; the unit is the last
 * word unless the header ends in a known multi-word unit. */
static int split_flat_header(span h, flat_state *st, result_text *r)
{
    h = span_trim(h);
    r->unit = h;
    for (size_t k = 0; k < sizeof multiword_units / sizeof multiword_units[0]; k++) {
        size_t n = strlen(multiword_units[k]);
        if (h.n >= n && !memcmp(h.p + h.n - n, multiword_units[k], n) &&
            (h.n == n || h.p[h.n - n - 1] == ' ')) {
            r->unit = span_make(h.p + h.n - n, n);
            break;
        }
    }
    if (r->unit.p == h.p) {
        size_t s = h.n;
        while (s && h.p[s - 1] != ' ')
            s--;
        r->unit = span_make(h.p + s, h.n - s);
    }
    span rest = span_trim(span_make(h.p, (size_t)(r->unit.p - h.p)));

    /* Where does the version token end? */
    size_t vend = 0;
    span known;
    size_t tag;
    if (known_title_at(rest, st, &known)) {
        vend = known.n + 1;
        if ((tag = ti_storbench_tag_at(rest, vend, NULL)))
            vend += tag; /* "Title (storbench test)" */
        else {
            while (vend < rest.n && rest.p[vend] != ' ')
                vend++;
            if (vend < rest.n && (tag = ti_storbench_tag_at(rest, vend + 1, NULL)))
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
            if (ti_is_version(span_make(rest.p + s, i - s))) {
                vend = i;
                if (vend < rest.n && (tag = ti_storbench_tag_at(rest, vend + 1, NULL)))
                    vend += 1 + tag;
                break;
            }
        }
        if (!vend) /* no version: the whole rest is the title */
            vend = rest.n;
    }
    r->title_line = span_make(rest.p, vend);
    r->options = span_trim(span_make(rest.p + vend, rest.n - vend));
    /* its title is known from now on (a header before it may start with it) */
    span t;
    ti_split_title_version(r->title_line, &t, NULL);
    return ti_index_add(&st->titles, t);
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
    h = span_trim(h);
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
        span word = span_make(h.p + starts[w], e - starts[w]);
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
        *desc = span_make(h.p + h.n, 0);
        return;
    }
    *title = span_trim(span_make(h.p, starts[split]));
    *desc = span_trim(span_make(h.p + starts[split], h.n - starts[split]));
}

/* The longest row identifier equal to the text of f that ends at 'end' and starts at or
 * after 'from' (preceded by a space or the start); 0 if none. */
static size_t known_ident_before(span f, size_t from, size_t end, const flat_state *st)
{
    span win = span_make(f.p + from, end - from);
    size_t cand[64];
    size_t nc = ti_index_scan(&st->idents, win, win.n, cand, 64);
    while (nc--)
        if (ti_index_has(&st->idents, win.p + win.n - cand[nc], cand[nc]))
            return cand[nc];
    return 0;
}

/* The value of the last "Key: value" of a system ends where the next part begins. Fallback
 * when nothing known marks that point: the value is one word. Returns the offset in s just
 * after that value (s is the text from the last system's body to the end of the part). */
static size_t last_value_end(span s)
{
    size_t last_key = 0;
    for (size_t i = 0; i + 2 < s.n; i++)
        if (s.p[i] == ',' && s.p[i + 1] == ' ' && ti_key_at(span_make(s.p + i + 2, s.n - i - 2)))
            last_key = i + 2;
    size_t k = ti_key_at(span_make(s.p + last_key, s.n - last_key));
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
        if (ti_parse_legend_line(span_make(f.p + i + 2, f.n - i - 2), &lg))
            return true;
    }
    return false;
}

/* After a row's bars: its "SE +/- x, N = n", the noisy mark "!" and the chart's noisy
 * legend (fixed texts, so they survive flattening); the offset after them. */
static size_t flat_row_extras(span f, size_t pos, row *rw)
{
    static const char legend_lit[] = " " SB_NOISY_LEGEND;
    size_t n, len;
    span se;
    if (pos + 1 < f.n && f.p[pos] == ' ' &&
        (len = ti_parse_se(span_make(f.p + pos + 1, f.n - pos - 1), &se, &n)) && n) {
        rw->se = se;
        rw->se_n = n;
        pos += 1 + len;
    }
    for (;;) {
        span rest = span_make(f.p + pos, f.n - pos);
        if (span_starts_with(rest, legend_lit) &&
            (rest.n == sizeof legend_lit - 1 || rest.p[sizeof legend_lit - 1] == ' '))
            pos += sizeof legend_lit - 1;
        else if (rest.n >= 2 && rest.p[0] == ' ' && rest.p[1] == SB_NOISY_MARK[0] &&
                 (rest.n == 2 || rest.p[2] == ' '))
            pos += 2;
        else
            return pos;
    }
}

/* 1. Results: direction phrases, then the rows after each; the text after the last row is
 *    the next result's header. *prefix_end is where the first phrase starts (the text
 *    before it holds the heading, the systems and the first result's header). */
static int flat_results(span f, page *pg, flat_state *st, size_t *prefix_end, char *err,
                        size_t errlen)
{
    char ex[64];
    size_t plen = 0;
    sb_direction dir;
    long first = next_phrase(f, 0, st, &plen, &dir);
    *prefix_end = first < 0 ? f.n : (size_t)first;
    long at = first;
    span pending = {0}; /* the header of the result about to be read (after the previous rows) */
    while (at >= 0) {
        result_text *r = ti_add_result(pg);
        if (!r)
            return -ENOMEM;
        r->dir = dir;
        r->header = pending;
        size_t pos = (size_t)at + plen;
        sb_direction ndir = dir;
        long nxt = next_phrase(f, pos, st, &plen, &ndir);
        span region = span_make(f.p, nxt < 0 ? f.n : (size_t)nxt);
        for (;;) {
            if (pos < region.n && f.p[pos] == ' ')
                pos++;
            if (pos >= region.n)
                break;
            size_t p, tail = 0, bars = 0;
            span value;
            for (p = pos + 1; p < region.n; p++)
                if ((tail = ti_row_tail_at(region, p, &value, &bars)))
                    break;
            if (p >= region.n)
                break;
            int rc = ti_add_row(r, span_make(f.p + pos, p - pos), value, bars, 0);
            if (rc)
                return rc;
            pos = p + tail;
            pos = flat_row_extras(region, pos, &r->rows[r->n_rows - 1]);
        }
        span rest = span_trim(span_make(f.p + pos, region.n - pos));
        if (nxt < 0 && rest.n)
            return page_fail(err, errlen, "unexpected text after the last result: '%s'",
                             ti_excerpt(rest, ex, sizeof ex));
        if (nxt >= 0 && !rest.n)
            return page_fail(err, errlen, "a result with no title before '%s'",
                             ti_excerpt(span_make(f.p + nxt, f.n - (size_t)nxt), ex, sizeof ex));
        pending = rest;
        dir = ndir;
        at = nxt;
    }

    /* Headers of results 2.. are exact: split them first, so their titles are known. */
    int rc = 0;
    for (size_t k = 1; rc == 0 && k < pg->n_results; k++)
        rc = split_flat_header(pg->results[k].header, st, &pg->results[k]);
    /* every row's identifier, for the systems' names */
    for (size_t r = 0; rc == 0 && r < pg->n_results; r++)
        for (size_t k = 0; rc == 0 && k < pg->results[r].n_rows; k++)
            rc = ti_index_add(&st->idents, pg->results[r].rows[k].ident);
    return rc;
}

/* 2. Systems: "<identifier>: Processor: ..." in the text before the first phrase. Each
 *    system's hardware span runs to the next system for now. *body_prev is where the last
 *    system's body starts, *heading_end where the first system starts. */
static int flat_systems(span prefix, page *pg, const flat_state *st, size_t *body_prev,
                        size_t *heading_end,
                        char *err, size_t errlen)
{
    long m = span_find(prefix, 0, ": Processor: ");
    while (m >= 0) {
        size_t idn = known_ident_before(prefix, *body_prev, (size_t)m, st);
        if (!idn) {
            /* Not named by any row: take the single word before the colon. */
            size_t s = (size_t)m;
            while (s > *body_prev && prefix.p[s - 1] != ' ')
                s--;
            idn = (size_t)m - s;
        }
        size_t id_start = (size_t)m - idn;
        if (!idn)
            return page_fail(err, errlen, "a system with no identifier before ': Processor:'");
        if (pg->n_systems) {
            system_text *prev = &pg->systems[pg->n_systems - 1];
            prev->hardware = span_make(prev->hardware.p, id_start - (size_t)(prev->hardware.p - prefix.p));
        } else {
            *heading_end = id_start;
        }
        system_text *s = ti_add_system_text(pg);
        if (!s)
            return -ENOMEM;
        s->ident = span_make(prefix.p + id_start, idn);
        *body_prev = (size_t)m + 2;
        s->hardware = span_make(prefix.p + *body_prev, prefix.n - *body_prev);
        m = span_find(prefix, (size_t)m + 2, ": Processor: ");
    }
    return 0;
}

/* Where the first result's header starts in tail (the text after the last system's body,
 * or the whole prefix with no system): at the earliest known title followed by a version,
 * else after the last system's last value. */
static size_t flat_header_start(span tail, const page *pg, const flat_state *st)
{
    /* Not inside the hardware list: start looking at the software part. */
    long os = pg->n_systems ? span_find(tail, 0, " OS: ") : -1;
    for (size_t i = os > 0 ? (size_t)os : 0; i < tail.n; i++) {
        if (i && tail.p[i - 1] != ' ')
            continue;
        span t;
        if (known_title_at(span_make(tail.p + i, tail.n - i), st, &t))
            return i;
    }
    if (pg->n_systems)
        return last_value_end(tail);
    /* No system and no known title: the header starts at the word before the first
     * version token. */
    size_t i = 0, prev = 0;
    while (i < tail.n) {
        size_t s = i;
        while (i < tail.n && tail.p[i] != ' ')
            i++;
        if (s && ti_is_version(span_make(tail.p + s, i - s)))
            return prev;
        prev = s;
        i++;
    }
    return 0;
}

/* 3. Where the last system (or the heading, with no system) ends and the first result's
 *    header begins. */
static int flat_first_header(span prefix, page *pg, flat_state *st, size_t body_prev,
                             size_t *heading_end)
{
    size_t from = pg->n_systems ? body_prev : 0;
    span tail = span_make(prefix.p + from, prefix.n - from);
    size_t hstart = flat_header_start(tail, pg, st);
    pg->results[0].header = span_make(tail.p + hstart, tail.n - hstart);
    if (pg->n_systems) {
        system_text *last = &pg->systems[pg->n_systems - 1];
        last->hardware = span_make(last->hardware.p, (size_t)(tail.p + hstart - last->hardware.p));
    } else {
        *heading_end = from + hstart;
    }
    return split_flat_header(pg->results[0].header, st, &pg->results[0]);
}

/* 4. Each system's body splits into hardware and software at "OS: ". */
static void flat_split_bodies(page *pg)
{
    for (size_t i = 0; i < pg->n_systems; i++) {
        system_text *s = &pg->systems[i];
        span body = span_trim(s->hardware);
        long os = span_starts_with(body, "OS: ") ? 0 : span_find(body, 0, " OS: ");
        if (os < 0) {
            s->hardware = body;
            s->software = span_make(body.p + body.n, 0);
        } else {
            s->hardware = span_trim(span_make(body.p, (size_t)os));
            s->software = span_trim(span_make(body.p + os, body.n - (size_t)os));
        }
    }
}

int ti_parse_flat(span f, page *pg, char *err, size_t errlen)
{
    if (flat_has_legend(f))
        return page_fail(err, errlen, "a chart with a source legend ('[1] imported: ...') reads only "
                         "with its line breaks (as 'storbench show' wrote it)");
    flat_state st = {.next_h = -2, .next_l = -2};
    st.titles.max_len = FLAT_TITLE_MAX;
    st.idents.backwards = true;
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < sb_known_title_count(); k++)
        rc = ti_index_add(&st.titles, span_make(sb_known_title_at(k), strlen(sb_known_title_at(k))));
    size_t prefix_end;
    if (rc == 0)
        rc = flat_results(f, pg, &st, &prefix_end, err, errlen);
    span prefix = span_make(f.p, rc ? 0 : prefix_end);
    size_t body_prev = 0; /* where the last system's body starts */
    size_t heading_end = prefix.n;
    if (rc == 0)
        rc = flat_systems(prefix, pg, &st, &body_prev, &heading_end, err, errlen);
    if (rc == 0 && pg->n_results)
        rc = flat_first_header(prefix, pg, &st, body_prev, &heading_end);
    ti_index_free(&st.titles);
    ti_index_free(&st.idents);
    if (rc)
        return rc;
    flat_split_bodies(pg);
    pg->heading = span_trim(span_make(f.p, heading_end));
    split_heading(pg->heading, &pg->title, &pg->description);
    return 0;
}
