/*
 * span — the helpers of span.h that are not inline: trimming, searching and copying a
 * slice of page text, and the one-line refusal both page readers return.
 */
#include "report/span.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
