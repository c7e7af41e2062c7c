/*
 * svg_lines — the charts of `storbench plot` over a result's parameters (svg_chart.h):
 * a metric against one option (lines, a line per value of another option or per
 * identifier) and over two options (a heat map per identifier). The options are the
 * results' recorded options (results[].options: iodepth, bs, numjobs ...), so any
 * option on any axis. An option's values are placed evenly in their order (numbers
 * by size, "4k" as 4096, other words as first seen), as fio-plot places iodepth
 * 1, 2, 4 ... 256: the doubling steps of a sweep stay apart. A cell two results fill
 * takes the first.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "core/units.h"
#include "report/html_latency.h"
#include "report/svg_axis.h"
#include "report/svg_chart.h"

#define TOP 44
#define PLOT_H 300     /* the lines chart's plot area */
#define CELL_H 28      /* a heat map row */
#define FOOT 60        /* x axis, its label */
#define CAPTION 30
#define KEY_H 40       /* a heat map's colour key under its x axis */
#define MAX_LABEL 160

/* The metric on a grid: series (rows) x option values (columns), NAN where none. */
typedef struct grid {
    const char **xs;          /* distinct values of the x option, in axis order */
    size_t nx;
    char (*ss)[MAX_LABEL];    /* series labels */
    size_t ns;
    double *v;                /* [s * nx + x] */
    const char *unit;
} grid;

static void grid_free(grid *g)
{
    free(g->xs);
    free(g->ss);
    free(g->v);
    memset(g, 0, sizeof *g);
}

static bool number_of(const char *s, double *v)
{
    uint64_t n;
    if (sb_parse_size(s, &n) == 0) {
        *v = (double)n;
        return true;
    }
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0';
}

static int cmp_values(const void *a, const void *b)
{
    double x, y;
    number_of(*(const char *const *)a, &x);
    number_of(*(const char *const *)b, &y);
    return x < y ? -1 : x > y;
}

static size_t index_of(const char **xs, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(xs[i], s))
            return i;
    return n;
}

/* The series label of entry e of result r: "<series>=<value>", with the identifier in
 * front when the chart has several; the identifier alone without a series option. */
static void series_label(char *buf, const sb_resultfile *rf, const sb_result *r,
                         const sb_entry *e, const char *series)
{
    const char *sv = series ? sb_kvlist_get(&r->options, series) : NULL;
    if (!series)
        snprintf(buf, MAX_LABEL, "%s", e->identifier);
    else if (rf->n_systems > 1)
        snprintf(buf, MAX_LABEL, "%s, %s=%s", e->identifier, series, sv);
    else
        snprintf(buf, MAX_LABEL, "%s=%s", series, sv);
}

/* Does entry e of r belong on the chart (of identifier only, when given)? */
static bool on_chart(const sb_result *r, const sb_entry *e, const sb_chart_spec *spec,
                     const char *only, double *v, const char **unit)
{
    return sb_kvlist_get(&r->options, spec->x) &&
           (!spec->series || sb_kvlist_get(&r->options, spec->series)) &&
           (!only || !strcmp(e->identifier, only)) && sb_svg_metric(r, e, spec->y, v, unit);
}

/* The grid of spec over rf (of one identifier when only is not NULL). */
static void grid_build(grid *g, const sb_resultfile *rf, const sb_chart_spec *spec, const char *only)
{
    size_t cap = 1;
    for (size_t i = 0; i < rf->n_results; i++)
        cap += rf->results[i].n_entries;
    memset(g, 0, sizeof *g);
    g->xs = sb_xrealloc(NULL, cap * sizeof *g->xs);
    g->ss = sb_xrealloc(NULL, cap * sizeof *g->ss);
    char label[MAX_LABEL];
    double v;
    bool numeric = true;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < rf->n_results; i++) {
            const sb_result *r = &rf->results[i];
            for (size_t j = 0; j < r->n_entries; j++) {
                const sb_entry *e = &r->entries[j];
                if (!on_chart(r, e, spec, only, &v, &g->unit))
                    continue;
                const char *xv = sb_kvlist_get(&r->options, spec->x);
                series_label(label, rf, r, e, spec->series);
                size_t xi = index_of(g->xs, g->nx, xv), si;
                for (si = 0; si < g->ns && strcmp(g->ss[si], label); si++)
                    ;
                if (pass == 0) {
                    double d;
                    if (xi == g->nx)
                        g->xs[g->nx++] = xv;
                    if (si == g->ns)
                        snprintf(g->ss[g->ns++], MAX_LABEL, "%s", label);
                    numeric = numeric && number_of(xv, &d);
                } else if (isnan(g->v[si * g->nx + xi])) {
                    g->v[si * g->nx + xi] = v;
                }
            }
        }
        if (pass == 0) {
            if (numeric && g->nx > 1)
                qsort(g->xs, g->nx, sizeof *g->xs, cmp_values);
            g->v = sb_xrealloc(NULL, (g->ns * g->nx + 1) * sizeof *g->v);
            for (size_t k = 0; k < g->ns * g->nx; k++)
                g->v[k] = NAN;
        }
    }
}

static void option_keys(const sb_resultfile *rf, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < rf->n_results; i++)
        for (size_t k = 0; k < rf->results[i].options.n; k++) {
            const char *key = rf->results[i].options.items[k].key;
            char probe[128];
            snprintf(probe, sizeof probe, " %s,", key);
            char have[1024];
            snprintf(have, sizeof have, " %s,", buf);
            if (!strstr(have, probe) && strlen(buf) + strlen(key) + 3 < len)
                snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", key);
        }
    if (!buf[0])
        snprintf(buf, len, "none: it records no options");
}

int sb_svg_lines_check(const sb_resultfile *rf, const sb_chart_spec *spec, char *err,
                       size_t errlen)
{
    const char *chart = spec->kind == SB_CHART_HEATMAP ? "heatmap" : "lines";
    char keys[512];
    option_keys(rf, keys, sizeof keys);
    if (!spec->x) {
        snprintf(err, errlen, "--chart %s needs --x OPTION (the result's options: %s)", chart, keys);
        return -EINVAL;
    }
    if (spec->kind == SB_CHART_HEATMAP && !spec->series) {
        snprintf(err, errlen, "--chart heatmap needs --series OPTION for its rows (the result's "
                              "options: %s)", keys);
        return -EINVAL;
    }
    const char *asked[2] = {spec->x, spec->series};
    for (int k = 0; k < 2; k++) {
        bool found = false;
        for (size_t i = 0; asked[k] && !found && i < rf->n_results; i++)
            found = sb_kvlist_get(&rf->results[i].options, asked[k]) != NULL;
        if (asked[k] && !found) {
            snprintf(err, errlen, "no result has the option '%s' for %s (the result's options: %s)",
                     asked[k], k ? "--series" : "--x", keys);
            return -EINVAL;
        }
    }
    grid g;
    grid_build(&g, rf, spec, NULL);
    size_t n = g.nx;
    grid_free(&g);
    if (!n) {
        snprintf(err, errlen, "no figure has the metric '%s' where the results have the option%s "
                              "asked for", spec->y, spec->series ? "s" : "");
        return -EINVAL;
    }
    return 0;
}

static double grid_min_max(const grid *g, double *max)
{
    double min = INFINITY;
    *max = 0;
    for (size_t k = 0; k < g->ns * g->nx; k++)
        if (!isnan(g->v[k])) {
            min = g->v[k] > 0 && g->v[k] < min ? g->v[k] : min;
            *max = g->v[k] > *max ? g->v[k] : *max;
        }
    return isfinite(min) ? min : 0;
}

static double column_x(size_t k, size_t n, double x0, double x1)
{
    return x0 + ((double)k + 0.5) * (x1 - x0) / (double)n;
}

/* The option axis under the plot: a tick per value, the option's name below. */
static void option_axis(FILE *out, const grid *g, const char *key, double x0, double x1, double y)
{
    fputs("<g class=\"x-axis\">\n", out);
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", x0, x1, y, y);
    for (size_t k = 0; k < g->nx; k++)
        sb_svg_text(out, column_x(k, g->nx, x0, x1), y + 14, "tick", "middle", g->xs[k]);
    sb_svg_text(out, (x0 + x1) / 2, y + 32, "axis-label", "middle", key);
    fputs("</g>\n", out);
}

static void metric_label(char *buf, size_t len, const char *metric, const char *unit, bool log)
{
    if (!metric || !strcmp(metric, SB_SVG_METRIC_VALUE))
        snprintf(buf, len, "%s%s", unit, log ? " (log scale)" : "");
    else
        snprintf(buf, len, "%s (%s)%s", metric, unit, log ? ", log scale" : "");
}

void sb_svg_lines_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec)
{
    grid g;
    grid_build(&g, rf, spec, NULL);
    const char **labels = sb_xrealloc(NULL, (g.ns + 1) * sizeof *labels);
    for (size_t s = 0; s < g.ns; s++)
        labels[s] = g.ss[s];
    int w = spec->width, legend = sb_svg_legend(NULL, labels, g.ns, 10, TOP, w - 20);
    int top = TOP + legend + 16, bottom = top + PLOT_H, h = bottom + FOOT + CAPTION;
    double x0 = 90, x1 = w - 30, max, min = grid_min_max(&g, &max);
    sb_svg_scale s;
    sb_svg_scale_init(&s, min, max, true, bottom, top);
    char label[256];
    metric_label(label, sizeof label, spec->y, g.unit, s.log);
    sb_svg_begin(out, w, h, rf->title);
    sb_svg_legend(out, labels, g.ns, 10, TOP, w - 20);
    sb_svg_axis_v(out, &s, x0, x1, label);
    option_axis(out, &g, spec->x, x0, x1, bottom);
    for (size_t si = 0; si < g.ns; si++) {
        fprintf(out, "<g class=\"series\" data-series=\"%zu\"><path fill=\"none\" stroke=\"%s\" "
                     "stroke-width=\"2\" d=\"", si, sb_html_colour(si));
        bool pen = false;
        for (size_t k = 0; k < g.nx; k++) {
            double v = g.v[si * g.nx + k];
            if (isnan(v)) {
                pen = false; /* a gap, not a line through a missing point */
                continue;
            }
            fprintf(out, "%s%.1f %.1f ", pen ? "L" : "M", column_x(k, g.nx, x0, x1), sb_svg_scale_at(&s, v));
            pen = true;
        }
        fputs("\"/>\n", out);
        for (size_t k = 0; k < g.nx; k++)
            if (!isnan(g.v[si * g.nx + k]))
                fprintf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                        column_x(k, g.nx, x0, x1), sb_svg_scale_at(&s, g.v[si * g.nx + k]), sb_html_colour(si));
        fputs("</g>\n", out);
    }
    sb_svg_end(out, rf, w, h - 12);
    free(labels);
    grid_free(&g);
}

/* A colour from dark blue (f = 0) through green to yellow (f = 1), viridis' ends. */
static void heat_colour(char *buf, size_t len, double f, bool *dark)
{
    static const double stops[][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    double p = f * 4;
    int i = p >= 4 ? 3 : (int)p;
    double t = p - i, c[3];
    for (int k = 0; k < 3; k++)
        c[k] = stops[i][k] + t * (stops[i + 1][k] - stops[i][k]);
    snprintf(buf, len, "#%02x%02x%02x", (int)lround(c[0]), (int)lround(c[1]), (int)lround(c[2]));
    *dark = f < 0.55;
}

/* The colour key of a heat map at y from x0 to x1: the scale's colours left to right and
 * its ticks under them, so a cell's colour reads as a value without its printed figure. */
static void heat_key(FILE *out, const sb_svg_scale *s, double x0, double x1, double y)
{
    enum { STEPS = 48 };
    double w = (x1 - x0) / STEPS;
    fprintf(out, "<g class=\"colour-key\" data-steps=\"%d\">\n", STEPS);
    for (int i = 0; i < STEPS; i++) {
        char colour[16];
        bool dark;
        heat_colour(colour, sizeof colour, (i + 0.5) / STEPS, &dark);
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>\n",
                x0 + i * w, y, w + 0.5, colour);
    }
    double ticks[16];
    size_t n = sb_svg_scale_ticks(s, ticks, 16);
    for (size_t i = 0; i < n; i++) {
        char val[32];
        double x = x0 + (x1 - x0) * sb_svg_scale_at(s, ticks[i]);
        sb_svg_format_number(val, sizeof val, ticks[i]);
        fprintf(out, "<line class=\"tick\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#57606a\"/>\n", x, x, y + 10, y + 14);
        sb_svg_text(out, x, y + 25, "tick", "middle", val);
    }
    fputs("</g>\n", out);
}

/* One identifier's heat map from y: --x across, --series down; returns its height. */
static int heat_panel(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec,
                      const char *id, int y, bool draw)
{
    grid g;
    grid_build(&g, rf, spec, id);
    int hgt = g.nx ? 24 + (int)g.ns * CELL_H + FOOT + KEY_H : 0;
    if (!draw || !g.nx) {
        grid_free(&g);
        return hgt;
    }
    double x0 = spec->width / 4.0, x1 = spec->width - 30, max, min = grid_min_max(&g, &max);
    sb_svg_scale s;
    sb_svg_scale_init(&s, min, max, true, 0, 1);
    char label[256];
    metric_label(label, sizeof label, spec->y, g.unit, s.log);
    fprintf(out, "<g class=\"heatmap\" data-rows=\"%zu\" data-columns=\"%zu\">\n", g.ns, g.nx);
    char head[512];
    snprintf(head, sizeof head, "%s: %s", id, label);
    sb_svg_text(out, 10, y + 16, "panel", "start", head);
    int top = y + 24;
    double cw = (x1 - x0) / (double)g.nx;
    for (size_t si = 0; si < g.ns; si++) {
        double cy = top + (double)si * CELL_H;
        /* the row's label is the series option's value alone: the panel names the identifier */
        const char *eq = strrchr(g.ss[si], '=');
        sb_svg_text(out, x0 - 8, cy + 18, "label", "end", eq ? eq + 1 : g.ss[si]);
        for (size_t k = 0; k < g.nx; k++) {
            double v = g.v[si * g.nx + k], cx = x0 + (double)k * cw;
            char colour[16], val[32];
            bool dark = false;
            if (isnan(v)) {
                fprintf(out, "<rect class=\"cell empty\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
                             "fill=\"#f6f8fa\" stroke=\"#ffffff\"/>\n", cx, cy, cw, CELL_H);
                continue;
            }
            heat_colour(colour, sizeof colour, sb_svg_scale_at(&s, v), &dark);
            fprintf(out, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                         "stroke=\"#ffffff\"/>\n", cx, cy, cw, CELL_H, colour);
            sb_svg_format_number(val, sizeof val, v);
            fprintf(out, "<text class=\"cell\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\"%s>%s</text>\n",
                    cx + cw / 2, cy + 18, dark ? " style=\"fill:#ffffff\"" : "", val);
        }
    }
    double by = top + (double)g.ns * CELL_H;
    option_axis(out, &g, spec->x, x0, x1, by);
    heat_key(out, &s, x0, x1, by + FOOT - 16);
    sb_svg_text(out, 10, top - 4 + (double)g.ns * CELL_H / 2, "axis-label", "start", spec->series);
    fputs("</g>\n", out);
    grid_free(&g);
    return hgt;
}

void sb_svg_heatmap_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec)
{
    int h = TOP;
    for (size_t i = 0; i < rf->n_systems; i++)
        h += heat_panel(NULL, rf, spec, rf->systems[i].identifier, 0, false);
    h += CAPTION;
    sb_svg_begin(out, spec->width, h, rf->title);
    int y = TOP;
    for (size_t i = 0; i < rf->n_systems; i++)
        y += heat_panel(out, rf, spec, rf->systems[i].identifier, y, true);
    sb_svg_end(out, rf, spec->width, h - 12);
}
