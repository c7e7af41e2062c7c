/*
 * strutil — small string helpers shared by the parsers of machine text
 * (sysinfo) and the result model: duplicating without an out-of-memory path,
 * quiet truncating formatting, trimming, and walking text line by line.
 */
#include "core/strutil.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Allocation failure is not a condition a benchmark can do anything useful about: one line
 * and abort, rather than threading ENOMEM through every setter. */
void sb_oom(void)
{
    fputs("storbench: out of memory\n", stderr);
    abort();
}

void *sb_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        sb_oom();
    return q;
}

void *sb_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        sb_oom();
    return p;
}

char *sb_xstrdup(const char *s)
{
    char *r = strdup(s ? s : "");
    if (!r)
        sb_oom();
    return r;
}

char *sb_xstrndup(const char *s, size_t n)
{
    char *r = strndup(s, n);
    if (!r)
        sb_oom();
    return r;
}

void sb_fmt(char *buf, size_t len, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, len, f, ap);
    va_end(ap);
}

void sb_trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

/* Collapses runs of blanks into one space and trims. */
void sb_squeeze(char *s)
{
    char *w = s;
    bool space = false;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r)) {
            space = true;
            continue;
        }
        if (space && w != s)
            *w++ = ' ';
        space = false;
        *w++ = *r;
    }
    *w = '\0';
}

/* Removes every occurrence of word (as a whole, blank-delimited word). */
void sb_remove_word(char *s, const char *word)
{
    size_t wl = strlen(word);
    char *p = s;
    while ((p = strstr(p, word))) {
        bool start = p == s || isspace((unsigned char)p[-1]);
        bool end = p[wl] == '\0' || isspace((unsigned char)p[wl]);
        if (start && end)
            memmove(p, p + wl, strlen(p + wl) + 1);
        else
            p += wl;
    }
}

void sb_remove_all(char *s, const char *sub)
{
    size_t l = strlen(sub);
    char *p;
    while ((p = strstr(s, sub)))
        memmove(p, p + l, strlen(p + l) + 1);
}

/* Start of the value of "KEY<blanks>: value" when line is such a line, else NULL. */
const char *sb_colon_value(const char *line, size_t linelen, const char *key)
{
    size_t kl = strlen(key);
    if (linelen < kl || strncmp(line, key, kl) != 0)
        return NULL;
    const char *p = line + kl;
    while (p < line + linelen && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= line + linelen || *p != ':')
        return NULL;
    p++;
    while (p < line + linelen && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Calls fn for each line of text (without its newline); stops when fn returns non-zero. */
void sb_for_each_line(const char *text, sb_line_fn fn, void *arg)
{
    if (!text)
        return;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (fn(p, len, arg))
            return;
        if (!nl)
            break;
        p = nl + 1;
    }
}
