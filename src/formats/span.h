/*
 * span — the formats layer's small tokenizer: a slice of a page's text (pointer and
 * length, not NUL-terminated) and the helpers the page readers share, the seed text page
 * (text_import*.c) and the dd wiki (ddwiki.c). They read the page where it lies, so that
 * a line or a token is never copied until it is kept. (kvline.h splits the "Key: value"
 * lines of the PTS reader, which works on NUL-terminated strings.)
 */
#ifndef SB_FORMATS_SPAN_H
#define SB_FORMATS_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

typedef struct span {
    const char *p;
    size_t n;
} span;

static inline span span_make(const char *p, size_t n)
{
    return (span){p, n};
}

static inline bool span_eq(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n == n && !memcmp(s.p, lit, n);
}

static inline bool span_starts_with(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && !memcmp(s.p, lit, n);
}

static inline bool span_ends_with(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && !memcmp(s.p + s.n - n, lit, n);
}

/* Case-insensitive: the dd wiki's pasted lines write "MB/s" and "</CODE>" either way. */
static inline bool span_ends_with_ci(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && !strncasecmp(s.p + s.n - n, lit, n);
}

/* s without leading and trailing white space (isspace). */
span span_trim(span s);
/* First occurrence of lit in s at or after 'from', or -1. */
long span_find(span s, size_t from, const char *lit);
/* A malloc'd NUL-terminated copy; NULL when out of memory. */
char *span_sdup(span s);
/* Writes the message to err (when given) and returns -EINVAL: how a page reader refuses. */
int page_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* What both readers check first: no NUL byte ("not KIND: the file contains NUL bytes") and
 * UTF-8 only (the line of the first bad byte). 0, or page_fail's -EINVAL. */
int page_check_text(const char *text, size_t len, const char *kind, char *err, size_t errlen);

#endif
