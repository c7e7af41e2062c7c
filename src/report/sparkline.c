/*
 * sparkline — text rows of a result's time series (see sparkline.h). Each row
 * is scaled to its own range: the shape (a write cliff, flush stalls) is what
 * a sparkline shows; the numbers after it give the range.
 */
#include "report/sparkline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

static const char *const blocks[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                      "\u2585", "\u2586", "\u2587", "\u2588"};

void sb_sparkline(char *buf, size_t len, const double *v, size_t n, size_t cols)
{
    if (!len)
        return;
    buf[0] = '\0';
    if (!n || !cols)
        return;
    size_t m = n < cols ? n : cols;
    double lo = INFINITY, hi = -INFINITY;
    double *col = malloc(m * sizeof *col);
    if (!col)
        return;
    for (size_t c = 0; c < m; c++) {
        size_t a = c * n / m, b = (c + 1) * n / m;
        double sum = 0;
        for (size_t i = a; i < b; i++)
            sum += v[i];
        col[c] = sum / (double)(b - a);
        lo = col[c] < lo ? col[c] : lo;
        hi = col[c] > hi ? col[c] : hi;
    }
    size_t at = 0;
    for (size_t c = 0; c < m; c++) {
        int level = hi > lo ? (int)lround((col[c] - lo) / (hi - lo) * 7) : 3;
        const char *b = blocks[level < 0 ? 0 : level > 7 ? 7 : level];
        size_t bl = strlen(b);
        if (at + bl >= len)
            break;
        memcpy(buf + at, b, bl);
        at += bl;
    }
    buf[at] = '\0';
    free(col);
}

bool sb_series_is_bw(const sb_result *r)
{
    return r->unit && strstr(r->unit, "B/s");
}

double sb_series_value(const sb_result *r, const sb_series_point *p)
{
    return sb_series_is_bw(r) ? p->bw / 1e6 : p->iops;
}

static size_t width_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
    return n;
}

static void fmt(char *buf, size_t len, double v)
{
    if (v >= 1e6)
        snprintf(buf, len, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, len, "%.1fk", v / 1e3);
    else if (v >= 100)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

void sb_report_sparklines(FILE *out, const sb_result *r, const sb_entry *const *order,
                          const char *const *labels, size_t n, int width)
{
    size_t lw = 0, any = 0;
    double interval = 0;
    for (size_t i = 0; i < n; i++)
        if (order[i]->series && order[i]->series->n) {
            any++;
            size_t w = width_of(labels[i]);
            lw = w > lw ? w : lw;
            interval = order[i]->series->interval_s > interval ? order[i]->series->interval_s : interval;
        }
    if (!any)
        return;
    bool bw = sb_series_is_bw(r);
    char iv[32];
    snprintf(iv, sizeof iv, "%g s", interval);
    fprintf(out, "Over time (%s per %s interval, median run; p99 latency range):\n",
            bw ? "MB/s" : "IOPS", iv);
    /* label, space, line, space, "lo..hi" and "p99 lo..hi us": about 40 columns of figures */
    long cols = (long)width - (long)lw - 44;
    if (cols < 8)
        cols = 8;
    for (size_t i = 0; i < n; i++) {
        const sb_series *s = order[i]->series;
        if (!s || !s->n)
            continue;
        double *v = malloc(s->n * sizeof *v);
        if (!v)
            return;
        double lo = INFINITY, hi = -INFINITY, plo = INFINITY, phi = -INFINITY;
        for (size_t k = 0; k < s->n; k++) {
            v[k] = sb_series_value(r, &s->p[k]);
            lo = v[k] < lo ? v[k] : lo;
            hi = v[k] > hi ? v[k] : hi;
            plo = s->p[k].lat_p99_us < plo ? s->p[k].lat_p99_us : plo;
            phi = s->p[k].lat_p99_us > phi ? s->p[k].lat_p99_us : phi;
        }
        char line[4 * 1024 + 1], a[32], b[32], c[32], d[32];
        sb_sparkline(line, sizeof line, v, s->n, (size_t)cols);
        free(v);
        fmt(a, sizeof a, lo);
        fmt(b, sizeof b, hi);
        fmt(c, sizeof c, plo);
        fmt(d, sizeof d, phi);
        fprintf(out, "%s%*s %s %s..%s, p99 %s..%s us\n", labels[i], (int)(lw - width_of(labels[i])),
                "", line, a, b, c, d);
    }
}
