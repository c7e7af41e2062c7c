/*
 * text_import_page (private to the text-format reader) — what its parts share: helpers
 * on spans of the page text (the span itself is formats/span.h), the page as read (systems, results, rows,
 * legends) before it becomes a result file, and the two layout parsers.
 * text_import_page.c has the helpers and the page model, text_import_tidy.c and
 * text_import_flat.c read the two layouts, text_import.c builds the result file.
 */
#ifndef SB_FORMATS_TEXT_IMPORT_PAGE_H
#define SB_FORMATS_TEXT_IMPORT_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/span.h"
#include "results/result.h"

/* A short, printable excerpt of s for error messages. */
const char *ti_excerpt(span s, char *buf, size_t len);
/* A version token: a digit (optionally after 'v'), then digits, letters, '.', '-', with a '.'. */
bool ti_is_version(span t);
bool ti_has_digit(span t);
/* Length of a "Key:" at s (1 to 3 capitalised words, then ':' and a space or the end); 0 if none. */
size_t ti_key_at(span s);
/* "Key: value, Key: value" into l (a piece without "Key:" gets an empty key). */
int ti_parse_kvlist(span s, sb_kvlist *l);
/* A row's tail at s.p[at]: " <dots> <value> <spaces>|<=...>"; its length, or 0. */
size_t ti_row_tail_at(span s, size_t at, span *value, size_t *bars);

typedef struct row {
    span ident;
    span value;
    size_t bars; /* '=' after the '|' */
    size_t line; /* 1-based line of a tidy page; 0 in a flattened one */
    span se;     /* the "SE +/- x, N = n" line under it: x (empty: none) and n */
    size_t se_n;
} row;

/* "SE +/- <decimal>, N = <count>" at the start of s: its length (0 if none), x and n. */
size_t ti_parse_se(span s, span *se, size_t *n);

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
    bool noisy_legend; /* the "! noisy: ..." line was read (nothing but legends after it) */
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

void ti_page_free(page *pg);
int ti_add_row(result_text *r, span ident, span value, size_t bars, size_t line);
/* "[k] imported: X" / "[k] measured: X" -> k and X. */
bool ti_parse_legend_line(span l, legend *out);
int ti_add_legend(result_text *r, legend lg);
result_text *ti_add_result(page *pg);
system_text *ti_add_system_text(page *pg);
/* "<Unit> > Higher Is Better" / "<Unit> < Lower Is Better" -> unit and direction. */
bool ti_parse_direction_line(span l, span *unit, sb_direction *dir);
/* "<Title> <version>": the version is the last word when it has a digit (version may be NULL). */
void ti_split_title_version(span tl, span *title, span *version);
/* Length of the tag "(storbench TEST)" at h[at] (TEST a known test), else 0. */
size_t ti_storbench_tag_at(span h, size_t at, const char **test);
/* A title line that ends in the storbench tag: its test (else NULL), and the line without it. */
const char *ti_storbench_tag(span tl, span *rest);

/* ---- text_import_index.c: strings found by the text around them, in time linear in it ---- */
typedef struct ti_index_slot {
    uint64_t hash;
    span full; /* the whole string; .p NULL for a word-boundary prefix */
    bool used;
} ti_index_slot;

typedef struct ti_index {
    ti_index_slot *slot;
    size_t cap, n;
    size_t longest; /* the longest string held */
    size_t max_len; /* strings longer are not added (0: no bound) */
    bool backwards; /* match strings that end at the anchor, not start there */
} ti_index;

/* Adds s (a span of the page: not copied). 0 or -ENOMEM. */
int ti_index_add(ti_index *ix, span s);
/* The lengths (shortest first, at most max) of indexed strings that may start at text[at]
 * (backwards: end just before it) and end at a word boundary; by hash only, so each
 * candidate is confirmed with ti_index_has(). Costs at most the longest string's length,
 * and stops at the first word boundary that no indexed string reaches. */
size_t ti_index_scan(const ti_index *ix, span text, size_t at, size_t *found, size_t max);
/* Is the string of n bytes at p indexed? */
bool ti_index_has(const ti_index *ix, const char *p, size_t n);
void ti_index_free(ti_index *ix);

/* ---- text_import_tidy.c: the layout with its line breaks (seed 001) ---- */
typedef struct lines {
    span *l;
    size_t n;
} lines;

/* The lines of text (a trailing CR dropped, trailing blank lines dropped). */
int ti_split_lines(span text, lines *out);
/* Does the page keep its line structure (title, description, two blank lines)? Where it
 * starts: line 0, or the first line that opens such a heading followed by a system block,
 * when only lines that are not the page stand before it (PTS's own warnings). */
bool ti_tidy_start(const lines *ls, size_t *start);
/* Reads the tidy page whose title is line start. */
int ti_parse_tidy(const lines *ls, size_t start, page *pg, char *err, size_t errlen);

/* ---- text_import_flat.c: the whitespace-flattened layout (seed 000) ---- */
/* Every run of whitespace becomes one space; malloc'd, length in *len. */
char *ti_flatten(span text, size_t *len);
int ti_parse_flat(span f, page *pg, char *err, size_t errlen);

#endif
