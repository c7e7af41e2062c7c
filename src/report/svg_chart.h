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
 */
#ifndef SB_REPORT_SVG_CHART_H
#define SB_REPORT_SVG_CHART_H

#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

typedef enum sb_chart_kind {
    SB_CHART_BARS,
    SB_CHART_LINES,
    SB_CHART_HEATMAP,
} sb_chart_kind;

typedef struct sb_chart_spec {
    sb_chart_kind kind;
    const char *x;      /* lines, heatmap: the option on the x axis */
    const char *y;      /* the metric: "value" (the figure, the default) or a secondary figure */
    const char *series; /* lines: the option per line (NULL: per identifier); heatmap: down */
    int width;          /* pixels */
} sb_chart_spec;

/* "bars", "lines", "heatmap" -> kind; -EINVAL for another name. */
int sb_chart_kind_parse(const char *name, sb_chart_kind *kind);
/* The names, for a usage line: "bars, lines or heatmap". */
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

#endif
