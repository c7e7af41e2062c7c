/*
 * escape — how a text from a result file goes into a report: HTML element text and
 * attributes, and one CSV field. The renderers (html*.c, csv.c, overview.c) share these
 * two writers; they live apart from html.c and csv.c so that overview.c and the html
 * parts need not include the page writers that include them (no include circle).
 */
#include "report/escape.h"

#include <stdbool.h>
#include <string.h>

void sb_html_escape(FILE *out, const char *s)
{
    if (!s)
        return;
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* Control characters other than tab and newline are not allowed in HTML text. */
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
                fputc(' ', out);
            else
                fputc(*s, out);
        }
    }
}

void sb_csv_field(FILE *out, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    bool formula = n > 0 && strchr("=+-@\t\r", s[0]);
    bool quote = formula || strpbrk(s, ",\"\r\n") != NULL ||
                 (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'));
    if (!quote) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}
