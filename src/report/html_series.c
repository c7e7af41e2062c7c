/*
 * html_series — the time-series charts of the HTML page (see html_series.h):
 * per result that has series, the figure (MB/s, or IOPS) and the p99 latency
 * over time, one line per identifier (the median run of each), on a shared
 * time axis. Each plot is an inner SVG with a viewBox stretched to the
 * width (preserveAspectRatio none, strokes that do not scale), so a
 * thousand points are one polyline instead of a thousand elements, and the
 * labels stay in the outer SVG where text is not distorted. A short series (a
 * short run has one interval or a few) also gets a dot per point, drawn in the outer
 * SVG where circles stay round, since a one-point polyline draws nothing; a chart with
 * nothing above 0 to draw is left out with one line saying so, never empty axes.
 */
#include "report/html_series.h"

#include <math.h>
#include <string.h>

#include "report/escape.h"
#include "report/html_latency.h"
#include "report/sparkline.h"

#define TS_H 200
#define TS_TOP 10
#define TS_BOTTOM 176   /* y of the time axis */
#define TS_VB_W 1000.0  /* viewBox units across the plot */
#define TS_DOTS_MAX 20  /* series of at most this many points get a dot per point */

/* A round step for about four gridlines up to hi. */
static double nice_step(double hi)
{
    double raw = hi / 4, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double point_value(const sb_result *r, const sb_series_point *p, bool p99)
{
    return p99 ? p->lat_p99_us : sb_series_value(r, p);
}

static void plot(FILE *out, const sb_result *r, size_t index, bool p99, double tmax)
{
    double hi = 0;
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_series *s = r->entries[j].series;
        for (size_t k = 0; s && k < s->n; k++) {
            double v = point_value(r, &s->p[k], p99);
            hi = isfinite(v) && v > hi ? v : hi;
        }
    }
    const char *unit = p99 ? "us" : sb_series_is_bw(r) ? "MB/s" : "IOPS";
    if (!(hi > 0)) {
        /* nothing above 0 to draw: no empty axes, one line saying why */
        fprintf(out, "<p class=\"note ts-omitted\" data-kind=\"%s\">%s over time: left out, no "
                     "interval of the median runs recorded one above 0.</p>\n",
                p99 ? "p99" : "figure", p99 ? "p99 latency" : sb_series_is_bw(r) ? "Throughput" : "IOPS");
        return;
    }
    double step = nice_step(hi), ymax = ceil(hi / step) * step;
    fprintf(out, "<h3>%s over time (%s, median run of each)</h3>\n",
            p99 ? "p99 latency" : sb_series_is_bw(r) ? "Throughput" : "IOPS", unit);
    fprintf(out, "<svg class=\"timeseries\" role=\"img\" aria-label=\"%s over time\" height=\"%d\" "
                 "data-result=\"%zu\" data-kind=\"%s\">\n",
            p99 ? "p99 latency" : unit, TS_H, index, p99 ? "p99" : "figure");
    double scale = (TS_BOTTOM - TS_TOP) / ymax;
    for (double t = 0; t <= ymax * 1.0001; t += step)
        fprintf(out, "<line class=\"grid\" x1=\"0\" x2=\"100%%\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
                TS_BOTTOM - t * scale, TS_BOTTOM - t * scale);
    fprintf(out, "<svg x=\"0\" y=\"0\" width=\"100%%\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
                 "preserveAspectRatio=\"none\">\n",
            TS_BOTTOM, TS_VB_W, TS_BOTTOM);
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_series *s = r->entries[j].series;
        if (!s || !s->n)
            continue;
        fprintf(out, "<polyline class=\"ts-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                     "vector-effect=\"non-scaling-stroke\"",
                sb_html_colour(j));
        if (*sb_html_dash(j))
            fprintf(out, " stroke-dasharray=\"%s\"", sb_html_dash(j));
        fputs(" data-identifier=\"", out);
        sb_html_escape(out, r->entries[j].identifier);
        fprintf(out, "\" data-points=\"%zu\" points=\"", s->n);
        for (size_t k = 0; k < s->n; k++) {
            /* each point at the middle of its interval */
            double x = (s->p[k].t - s->p[k].dur / 2) / tmax * TS_VB_W;
            double v = point_value(r, &s->p[k], p99);
            fprintf(out, "%s%.1f,%.1f", k ? " " : "", x, TS_BOTTOM - (isfinite(v) ? v : 0) * scale);
        }
        fputs("\"/>\n", out);
    }
    fputs("</svg>\n", out);
    /* A short series (a short run has one or a few intervals) also gets a dot per point,
     * drawn out here where circles stay round: a one-point polyline draws nothing. */
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_series *s = r->entries[j].series;
        for (size_t k = 0; s && s->n <= TS_DOTS_MAX && k < s->n; k++) {
            double x = (s->p[k].t - s->p[k].dur / 2) / tmax * 100;
            double v = point_value(r, &s->p[k], p99);
            fprintf(out, "<circle class=\"ts-point\" cx=\"%.2f%%\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                    x, TS_BOTTOM - (isfinite(v) ? v : 0) * scale, sb_html_colour(j));
        }
    }
    for (double t = 0; t <= ymax * 1.0001; t += step)
        fprintf(out, "<text class=\"axis\" x=\"0\" y=\"%.1f\">%g %s</text>\n",
                TS_BOTTOM - t * scale - 3, t, unit);
    for (int i = 0; i <= 4; i++)
        fprintf(out, "<text class=\"axis\" x=\"%d%%\" y=\"%d\" text-anchor=\"%s\">%.3g s</text>\n",
                i * 25, TS_BOTTOM + 16, i == 0 ? "start" : i == 4 ? "end" : "middle", tmax * i / 4);
    fputs("</svg>\n", out);
}

void sb_html_series_charts(FILE *out, const sb_result *r, size_t index)
{
    double tmax = 0;
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_series *s = r->entries[j].series;
        if (s && s->n && s->p[s->n - 1].t > tmax)
            tmax = s->p[s->n - 1].t;
    }
    if (!(tmax > 0))
        return;
    fputs("<div class=\"chart-block\">\n", out);
    plot(out, r, index, false, tmax);
    plot(out, r, index, true, tmax);
    fputs("<ul class=\"legend\">", out);
    for (size_t j = 0; j < r->n_entries; j++)
        if (r->entries[j].series && r->entries[j].series->n)
            sb_html_legend_item(out, j, r->entries[j].identifier);
    fputs("</ul>\n", out);
    for (size_t j = 0; j < r->n_entries; j++) {
        const sb_entry *e = &r->entries[j];
        if (!sb_entry_unsteady(e))
            continue;
        fputs("<p class=\"note\">", out);
        sb_html_escape(out, e->identifier);
        fprintf(out, ": the job ended before steady state in %u of %u runs (", e->ss_runs - e->ss_attained,
                e->ss_runs);
        sb_html_escape(out, e->steady);
        fputs(")</p>\n", out);
    }
    fputs("</div>\n", out);
}
