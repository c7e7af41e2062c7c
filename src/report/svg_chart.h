/*
 * svg_chart — the charts of `storbench plot` as standalone SVG (svg_chart.c: the
 * choice and the bar charts; svg_lines.c: lines and heat maps over a result's
 * parameters; svg_axis.h: what they share). cli/plot.c turns the SVG into PNG with
 * report/svg_png.h when asked.
 *
 *   bars     one panel per result (a chart of the page), a bar per identifier: several
 *            configurations side by side, "not run" where one lacks the figure
 *   lines    the metric against the option --x (iodepth, bs, numjobs ...), a line per
 *            value of the option --series (default: per identifier)
 *   heatmap  the metric over two options, --x across and --series down, one panel per
 *            identifier, each cell coloured by its value and labelled with it
 *   percentiles  a row per configuration, a bar per completion-latency percentile
 *   series   the per-interval figures a run kept (IOPS, bandwidth, latency) against time,
 *            a line per configuration (svg_detail.c)
 * Without --chart a sweep (results of one test that differ in their options, svg_sweep.c)
 * is drawn as lines over the options it varies; another page as bars.
 */
#ifndef SB_REPORT_SVG_CHART_H
#define SB_REPORT_SVG_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

typedef enum sb_chart_kind {
    SB_CHART_BARS,
    SB_CHART_LINES,
    SB_CHART_HEATMAP,
    SB_CHART_PERCENTILES,
    SB_CHART_SERIES,
} sb_chart_kind;

typedef struct sb_chart_spec {
    sb_chart_kind kind;
    const char *x;      /* lines, heatmap: the option on the x axis */
    const char *y;      /* the metric: "value" (the figure, the default) or a secondary figure */
    const char *series; /* lines: the option per line (NULL: per identifier); heatmap: down */
    int width;          /* pixels */
} sb_chart_spec;

/* "bars", "lines", "heatmap", "percentiles", "series" -> kind; -EINVAL for another name. */
int sb_chart_kind_parse(const char *name, sb_chart_kind *kind);
/* The names, for a usage line: "bars, lines, heatmap, percentiles or series". */
const char *sb_chart_kind_names(void);

/* Whether rf can be drawn as spec asks: 0, or -EINVAL with one line in err (a metric no
 * figure has, an option no result has, a chart that needs --x). Nothing is written. */
int sb_svg_chart_check(const sb_resultfile *rf, const sb_chart_spec *spec, char *err,
                       size_t errlen);
/* The chart as SVG (after sb_svg_chart_check said 0). 0 or -EIO. */
int sb_svg_chart_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec);

/* svg_lines.c: the lines and heatmap charts, and the check of their options. */
int sb_svg_lines_check(const sb_resultfile *rf, const sb_chart_spec *spec, char *err,
                       size_t errlen);
void sb_svg_lines_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec);
void sb_svg_heatmap_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec);

/* svg_detail.c: the percentiles and series charts, and the check of what they need. */
int sb_svg_detail_check(const sb_resultfile *rf, const sb_chart_spec *spec, char *err, size_t errlen);
void sb_svg_percentiles_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec);
void sb_svg_series_write(FILE *out, const sb_resultfile *rf, const sb_chart_spec *spec);

/* svg_sweep.c: the options rf's results of one test vary, the first for x and the second
 * for the lines (NULL when fewer vary); false when none does (not a sweep). */
bool sb_svg_sweep_axes(const sb_resultfile *rf, const char **x, const char **series);
/* A configuration's short name: the options its page varies ("iodepth=4, numjobs=2"), after
 * the identifier when the page has several; the option line when nothing varies. */
void sb_svg_config_label(const sb_resultfile *rf, const sb_result *r, const sb_entry *e, char *buf,
                         size_t len);

#endif
