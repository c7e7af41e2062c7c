/*
 * svg_chart — `storbench plot`'s choice of chart and its bar charts (svg_chart.h).
 * A bar chart is the seed page drawn: one panel per result, a horizontal bar per
 * identifier in the page's order and colour, the value at the bar's end, "not run"
 * where an identifier lacks the figure, and a value axis per panel (results have
 * different units) that turns logarithmic when the panel's values span two decades.
 * Every size is computed before the first byte is written, because the <svg> head
 * carries the height.
 */
#include "report/svg_chart.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "report/escape.h"
#include "report/html_latency.h"
#include "report/svg_axis.h"
#include "results/page_marks.h"

#define TOP 44         /* title */
#define PANEL_HEAD 44  /* a panel's title line and option line */
#define ROW 24         /* one identifier's bar */
#define BAR 16
#define PANEL_FOOT 50  /* the value axis, its label and the gap to the next panel */
#define CAPTION 30

static const struct {
    const char *name;
    sb_chart_kind kind;
} kinds[] = {
    {"bars", SB_CHART_BARS},
    {"lines", SB_CHART_LINES},
    {"heatmap", SB_CHART_HEATMAP},
    {"percentiles", SB_CHART_PERCENTILES},
    {"series", SB_CHART_SERIES},
};

int sb_chart_kind_parse(const char *name, sb_chart_kind *kind)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(name, kinds[i].name)) {
            *kind = kinds[i].kind;
            return 0;
        }
    return -EINVAL;
}

const char *sb_chart_kind_names(void)
{
    return "bars, lines, heatmap, percentiles or series";
}

static bool any_metric(const sb_resultfile *rf, const char *metric)
{
    for (size_t i = 0; i < rf->n_results; i++)
        if (sb_svg_result_has_metric(&rf->results[i], metric))
            return true;
    return false;
}

int sb_svg_chart_check(const sb_resultfile *rf, const sb_chart_spec *spec, char *err,
                       size_t errlen)
{
    if (!rf->n_results) {
        snprintf(err, errlen, "the result file holds no figures to plot");
        return -EINVAL;
    }
    if (spec->kind == SB_CHART_PERCENTILES || spec->kind == SB_CHART_SERIES)
        return sb_svg_detail_check(rf, spec, err, errlen); /* metrics of their own */
    if (!any_metric(rf, spec->y)) {
        char names[512];
        sb_svg_metric_names(rf, names, sizeof names);
        snprintf(err, errlen, "no figure has the metric '%s' (the result has: %s)", spec->y, names);
        return -EINVAL;
    }
    if (spec->kind == SB_CHART_BARS) {
        if (spec->x || spec->series) {
            snprintf(err, errlen, "--x and --series are for --chart lines or heatmap (bars have "
                                  "a panel per result and a bar per identifier)");
            return -EINVAL;
        }
        return 0;
    }
    return sb_svg_lines_check(rf, spec, err, errlen);
}

/* The axis label of a panel: "MB/s, higher is better", "iops (IOPS)"; ", log scale". */
static void axis_label(char *buf, size_t len, const sb_result *r, const char *metric,
                       const char *unit, bool log)
{
    if (!metric || !strcmp(metric, SB_SVG_METRIC_VALUE))
        snprintf(buf, len, "%s, %s is better%s", unit, r->direction == SB_LOWER_IS_BETTER ? "lower" : "higher",
                 log ? " (log scale)" : "");
    else
        snprintf(buf, len, "%s (%s)%s", metric, unit, log ? ", log scale" : "");
}

/* Where the bars start: after the longest identifier (7 px a character at 12 px), at
 * least 80 px and at most half the width, so that no label is cut at the left edge. */
static int bars_left(const sb_resultfile *rf, int w)
{
    size_t chars = 0;
    for (size_t i = 0; i < rf->n_systems; i++) {
        size_t n = 0;
        for (const char *p = rf->systems[i].identifier; *p; p++)
            n += ((unsigned char)*p & 0xC0) != 0x80;
        chars = n > chars ? n : chars;
    }
    int x0 = 18 + (int)chars * 7;
    return x0 < 80 ? 80 : x0 > w / 2 ? w / 2 : x0;
}

static int panel_height(const sb_resultfile *rf)
{
    return PANEL_HEAD + (int)rf->n_systems * ROW + PANEL_FOOT;
}

/* One result's panel from y: its title, a bar per identifier of the page, its axis. */
static void bar_panel(FILE *out, const sb_resultfile *rf, const sb_result *r,
                      const sb_chart_spec *spec, int y)
{
    int w = spec->width, x0 = bars_left(rf, w), x1 = w - 70;
    double min = INFINITY, max = 0, v;
    const char *unit = "";
    for (size_t j = 0; j < r->n_entries; j++)
        if (sb_svg_metric(r, &r->entries[j], spec->y, &v, &unit)) {
            min = v > 0 && v < min ? v : min;
            max = v > max ? v : max;
        }
    sb_svg_scale s;
    sb_svg_scale_init(&s, isfinite(min) ? min : 0, max, true, x0, x1);
    char line[512];
    sb_result_title_line(r, line, sizeof line);
    fputs("<g class=\"result\" data-test=\"", out);
    sb_html_escape(out, r->test);
    fprintf(out, "\" data-bars=\"%zu\">\n", rf->n_systems);
    sb_svg_text(out, 10, y + 16, "panel", "start", line);
    sb_svg_text(out, 10, y + 32, "sub", "start", r->description && *r->description ? r->description : "");
    int top = y + PANEL_HEAD, bottom = top + (int)rf->n_systems * ROW;
    axis_label(line, sizeof line, r, spec->y, unit, s.log);
    sb_svg_axis_h(out, &s, bottom + 4, top - 4, line);
    for (size_t i = 0; i < rf->n_systems; i++) {
        const char *id = rf->systems[i].identifier;
        const sb_entry *e = sb_result_find_entry(r, id);
        int ry = top + (int)i * ROW;
        sb_svg_text(out, x0 - 8, ry + 13, "label", "end", id);
        if (!e || !sb_svg_metric(r, e, spec->y, &v, &unit)) {
            fprintf(out, "<rect class=\"bar empty\" x=\"%d\" y=\"%d\" width=\"0\" height=\"%d\" "
                         "fill=\"none\"/>", x0, ry + 2, BAR);
            sb_svg_text(out, x0 + 4, ry + 14, "sub not-run", "start", SB_NOT_RUN_MARK);
            continue;
        }
        double px = sb_svg_scale_at(&s, v);
        fputs("<rect class=\"bar\" data-identifier=\"", out);
        sb_html_escape(out, id);
        fprintf(out, "\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", x0, ry + 2,
                px - x0, BAR, sb_html_colour(i));
        char val[64];
        if (!spec->y || !strcmp(spec->y, SB_SVG_METRIC_VALUE))
            sb_format_value(val, sizeof val, v, e->decimals);
        else
            sb_svg_format_number(val, sizeof val, v);
        sb_svg_text(out, px + 4, ry + 14, "value", "start", val);
    }
    fputs("</g>\n", out);
}

static void bars_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec)
{
    const char **labels = calloc(rf->n_systems + 1, sizeof *labels);
    for (size_t i = 0; labels && i < rf->n_systems; i++)
        labels[i] = rf->systems[i].identifier;
    size_t n_labels = labels ? rf->n_systems : 0;
    int legend = sb_svg_legend(NULL, labels, n_labels, 10, TOP, spec->width - 20);
    size_t panels = 0;
    for (size_t i = 0; i < rf->n_results; i++)
        panels += sb_svg_result_has_metric(&rf->results[i], spec->y);
    int h = TOP + legend + 10 + (int)panels * panel_height(rf) + CAPTION;
    sb_svg_begin(out, spec->width, h, rf->title);
    sb_svg_legend(out, labels, n_labels, 10, TOP, spec->width - 20);
    int y = TOP + legend + 10;
    for (size_t i = 0; i < rf->n_results; i++) {
        if (!sb_svg_result_has_metric(&rf->results[i], spec->y))
            continue;
        bar_panel(out, rf, &rf->results[i], spec, y);
        y += panel_height(rf);
    }
    sb_svg_end(out, rf, spec->width, h - 12);
    free(labels);
}

int sb_svg_chart_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec)
{
    switch (spec->kind) {
    case SB_CHART_BARS: bars_write(out, rf, spec); break;
    case SB_CHART_LINES: sb_svg_lines_write(out, rf, spec); break;
    case SB_CHART_HEATMAP: sb_svg_heatmap_write(out, rf, spec); break;
    case SB_CHART_PERCENTILES: sb_svg_percentiles_write(out, rf, spec); break;
    case SB_CHART_SERIES: sb_svg_series_write(out, rf, spec); break;
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
}
