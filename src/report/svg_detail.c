/*
 * svg_detail — the charts of `storbench plot` that look inside each configuration
 * (svg_chart.h): its completion-latency percentiles (a row per configuration, a bar per
 * percentile, as fio-plot's latency bars) and its time series (the per-interval IOPS,
 * bandwidth or latency the run kept: results[].entries[].series, a line per
 * configuration against seconds into the measurement). A configuration is named by the
 * options its page varies (svg_sweep.c), so a sweep's rows read "iodepth=4, numjobs=2".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strutil.h"
#include "report/html_latency.h"
#include "report/svg_axis.h"
#include "report/svg_chart.h"

#define TOP 44
#define BAR 9
#define PLOT_H 300
#define FOOT 60
#define CAPTION 30
#define LABEL 256

static const char *const pcts[] = {"lat_p50", "lat_p90", "lat_p99", "lat_p99.9", "lat_p99.99"};
#define N_PCTS (sizeof pcts / sizeof pcts[0])

/* The percentiles any figure has (bitmask over pcts) and how many figures have one. */
static unsigned pcts_present(const sb_resultfile *rf, size_t *rows)
{
    unsigned mask = 0;
    double v;
    const char *unit;
    *rows = 0;
    for (size_t i = 0; i < rf->n_results; i++)
        for (size_t j = 0; j < rf->results[i].n_entries; j++) {
            bool any = false;
            for (size_t k = 0; k < N_PCTS; k++)
                if (sb_svg_metric(&rf->results[i], &rf->results[i].entries[j], pcts[k], &v, &unit)) {
                    mask |= 1u << k;
                    any = true;
                }
            *rows += any;
        }
    return mask;
}

/* The series metric of spec->y: 0 iops, 1 bw, 2 lat_mean, 3 lat_p99; -1 for another. */
static int series_metric(const char *y)
{
    static const char *const names[] = {"iops", "bw", "lat_mean", "lat_p99"};
    if (!y || !strcmp(y, SB_SVG_METRIC_VALUE))
        return 0;
    for (int i = 0; i < 4; i++)
        if (!strcmp(y, names[i]))
            return i;
    return -1;
}

static double point_value(const sb_series_point *p, int m)
{
    return m == 0 ? p->iops : m == 1 ? p->bw / 1e6 : m == 2 ? p->lat_mean_us : p->lat_p99_us;
}

int sb_svg_detail_check(const sb_resultfile *rf, const sb_chart_spec *spec, char *err, size_t errlen)
{
    if (spec->x || spec->series) {
        snprintf(err, errlen, "--x and --series are for --chart lines or heatmap (this chart has a %s per "
                              "configuration)", spec->kind == SB_CHART_SERIES ? "line" : "row");
        return -EINVAL;
    }
    if (spec->kind == SB_CHART_PERCENTILES) {
        size_t rows;
        if (!pcts_present(rf, &rows)) {
            snprintf(err, errlen, "no figure has latency percentiles (lat_p50 ... lat_p99.99) to draw");
            return -EINVAL;
        }
        return 0;
    }
    if (series_metric(spec->y) < 0) {
        snprintf(err, errlen, "a time series has iops, bw, lat_mean and lat_p99, not '%s'", spec->y);
        return -EINVAL;
    }
    for (size_t i = 0; i < rf->n_results; i++)
        for (size_t j = 0; j < rf->results[i].n_entries; j++)
            if (rf->results[i].entries[j].series && rf->results[i].entries[j].series->n)
                return 0;
    snprintf(err, errlen, "no figure holds a time series (per-interval figures: the I/O tests record one)");
    return -EINVAL;
}

/* Where rows start: after the longest label (7 px a character), 80 px to half the width. */
static int labels_left(const char *const *labels, size_t n, int w)
{
    size_t chars = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        for (const char *p = labels[i]; *p; p++)
            c += ((unsigned char)*p & 0xC0) != 0x80;
        chars = c > chars ? c : chars;
    }
    int x0 = 18 + (int)chars * 7;
    return x0 < 80 ? 80 : x0 > w / 2 ? w / 2 : x0;
}

/* One configuration's row of percentile bars from y. */
static void pct_row(FILE *out, const sb_result *r, const sb_entry *e, unsigned mask, const sb_svg_scale *s,
                    double x0, int y, const char *label)
{
    size_t n = 0;
    for (size_t k = 0; k < N_PCTS; k++)
        n += (mask >> k) & 1;
    fprintf(out, "<g class=\"config\" data-bars=\"%zu\">\n", n);
    sb_svg_text(out, x0 - 8, y + (double)n * BAR / 2 + 4, "label", "end", label);
    size_t slot = 0;
    for (size_t k = 0; k < N_PCTS; k++) {
        if (!((mask >> k) & 1))
            continue;
        double v;
        const char *unit;
        int by = y + (int)slot++ * BAR;
        if (!sb_svg_metric(r, e, pcts[k], &v, &unit))
            continue;
        double px = sb_svg_scale_at(s, v);
        char val[32];
        sb_svg_format_number(val, sizeof val, v);
        fprintf(out, "<rect class=\"bar\" data-percentile=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                     "fill=\"%s\"/>", pcts[k] + 4, x0, by, px - x0, BAR - 1, sb_html_colour(k));
        fprintf(out, "<text class=\"value\" x=\"%.1f\" y=\"%d\" style=\"font-size:9px\">%s</text>\n", px + 3,
                by + BAR - 1, val);
    }
    fputs("</g>\n", out);
}

void sb_svg_percentiles_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec)
{
    size_t rows, n = 0, npct = 0;
    unsigned mask = pcts_present(rf, &rows);
    const sb_result **rr = sb_xrealloc(NULL, (rows + 1) * sizeof *rr);
    const sb_entry **ee = sb_xrealloc(NULL, (rows + 1) * sizeof *ee);
    char (*labels)[LABEL] = sb_xrealloc(NULL, (rows + 1) * sizeof *labels);
    const char **lp = sb_xrealloc(NULL, (rows + 1) * sizeof *lp);
    double min = INFINITY, max = 0, v;
    const char *unit, *legend[N_PCTS];
    for (size_t k = 0; k < N_PCTS; k++)
        if ((mask >> k) & 1)
            legend[npct++] = pcts[k] + 4;
    for (size_t i = 0; i < rf->n_results; i++)
        for (size_t j = 0; j < rf->results[i].n_entries; j++) {
            bool any = false;
            for (size_t k = 0; k < N_PCTS; k++)
                if (sb_svg_metric(&rf->results[i], &rf->results[i].entries[j], pcts[k], &v, &unit)) {
                    any = true;
                    min = v > 0 && v < min ? v : min;
                    max = v > max ? v : max;
                }
            if (!any)
                continue;
            rr[n] = &rf->results[i];
            ee[n] = &rf->results[i].entries[j];
            sb_svg_config_label(rf, rr[n], ee[n], labels[n], LABEL);
            lp[n] = labels[n];
            n++;
        }
    int w = spec->width, x0 = labels_left(lp, n, w), row = (int)npct * BAR + 10;
    int lh = sb_svg_legend(NULL, legend, npct, 10, TOP, w - 20);
    int top = TOP + lh + 10, bottom = top + (int)n * row, h = bottom + FOOT + CAPTION;
    sb_svg_scale s;
    sb_svg_scale_init(&s, isfinite(min) ? min : 0, max, true, x0, w - 60);
    char label[128];
    snprintf(label, sizeof label, "completion latency (us)%s", s.log ? ", log scale" : "");
    sb_svg_begin(out, w, h, rf->title);
    sb_svg_legend(out, legend, npct, 10, TOP, w - 20);
    sb_svg_axis_h(out, &s, bottom + 4, top - 4, label);
    for (size_t i = 0; i < n; i++)
        pct_row(out, rr[i], ee[i], mask, &s, x0, top + (int)i * row, labels[i]);
    sb_svg_end(out, rf, w, h - 12);
    free(rr);
    free(ee);
    free(labels);
    free(lp);
}

void sb_svg_series_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec)
{
    static const char *const names[] = {"iops (IOPS)", "bw (MB/s)", "lat_mean (us)", "lat_p99 (us)"};
    int m = series_metric(spec->y);
    size_t cap = 1, n = 0;
    for (size_t i = 0; i < rf->n_results; i++)
        cap += rf->results[i].n_entries;
    const sb_entry **ee = sb_xrealloc(NULL, cap * sizeof *ee);
    char (*labels)[LABEL] = sb_xrealloc(NULL, cap * sizeof *labels);
    const char **lp = sb_xrealloc(NULL, cap * sizeof *lp);
    double tmax = 0, min = INFINITY, max = 0;
    for (size_t i = 0; i < rf->n_results; i++)
        for (size_t j = 0; j < rf->results[i].n_entries; j++) {
            const sb_entry *e = &rf->results[i].entries[j];
            if (!e->series || !e->series->n)
                continue;
            for (size_t k = 0; k < e->series->n; k++) {
                double v = point_value(&e->series->p[k], m);
                tmax = e->series->p[k].t > tmax ? e->series->p[k].t : tmax;
                min = v > 0 && v < min ? v : min;
                max = v > max ? v : max;
            }
            ee[n] = e;
            sb_svg_config_label(rf, &rf->results[i], e, labels[n], LABEL);
            lp[n] = labels[n];
            n++;
        }
    int w = spec->width, lh = sb_svg_legend(NULL, lp, n, 10, TOP, w - 20);
    int top = TOP + lh + 16, bottom = top + PLOT_H, h = bottom + FOOT + CAPTION;
    double x0 = 90, x1 = w - 30;
    sb_svg_scale sy, sx;
    sb_svg_scale_init(&sy, isfinite(min) ? min : 0, max, true, bottom, top);
    sb_svg_scale_init(&sx, 0, tmax, false, x0, x1);
    char label[128];
    snprintf(label, sizeof label, "%s%s", names[m], sy.log ? ", log scale" : "");
    sb_svg_begin(out, w, h, rf->title);
    sb_svg_legend(out, lp, n, 10, TOP, w - 20);
    sb_svg_axis_v(out, &sy, x0, x1, label);
    sb_svg_axis_h(out, &sx, bottom, top, "seconds into the measurement");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "<g class=\"series\" data-series=\"%zu\" data-points=\"%zu\"><path fill=\"none\" stroke=\"%s\" "
                     "stroke-width=\"2\" d=\"", i, ee[i]->series->n, sb_html_colour(i));
        for (size_t k = 0; k < ee[i]->series->n; k++) {
            const sb_series_point *p = &ee[i]->series->p[k];
            fprintf(out, "%s%.1f %.1f ", k ? "L" : "M", sb_svg_scale_at(&sx, p->t),
                    sb_svg_scale_at(&sy, point_value(p, m)));
        }
        fputs("\"/>\n", out);
        for (size_t k = 0; k < ee[i]->series->n; k++) {
            const sb_series_point *p = &ee[i]->series->p[k];
            fprintf(out, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                    sb_svg_scale_at(&sx, p->t), sb_svg_scale_at(&sy, point_value(p, m)), sb_html_colour(i));
        }
        fputs("</g>\n", out);
    }
    sb_svg_end(out, rf, w, h - 12);
    free(ee);
    free(labels);
    free(lp);
}
