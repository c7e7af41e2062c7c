/*
 * span — the helpers of span.h that are not inline: trimming, searching and copying a
 * slice of page text, the checks both page readers make before reading one, and the
 * one-line refusal they return.
 */
#include "formats/span.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/result.h"

span span_trim(span s)
{
    while (s.n && isspace((unsigned char)s.p[0])) {
        s.p++;
        s.n--;
    }
    while (s.n && isspace((unsigned char)s.p[s.n - 1]))
        s.n--;
    return s;
}

long span_find(span s, size_t from, const char *lit)
{
    size_t n = strlen(lit);
    for (size_t i = from; i + n <= s.n; i++)
        if (!memcmp(s.p + i, lit, n))
            return (long)i;
    return -1;
}

char *span_sdup(span s)
{
    char *r = malloc(s.n + 1);
    if (!r)
        return NULL;
    memcpy(r, s.p, s.n);
    r[s.n] = '\0';
    return r;
}

int page_check_text(const char *text, size_t len, const char *kind, char *err, size_t errlen)
{
    if (memchr(text, '\0', len))
        return page_fail(err, errlen, "not %s: the file contains NUL bytes", kind);
    /* A result file holds UTF-8 only (JSON): a Latin-1 byte would make the save drop the
     * system or result it is in. Refused here, where the line can be named. */
    size_t bad = sb_utf8_check(text, len);
    if (bad < len) {
        size_t line = 1;
        for (size_t i = 0; i < bad; i++)
            line += text[i] == '\n';
        return page_fail(err, errlen, "line %zu: byte 0x%02x is not UTF-8 (convert the page, e.g. "
                         "with iconv -f latin1 -t utf-8)", line, (unsigned char)text[bad]);
    }
    return 0;
}

int page_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}
