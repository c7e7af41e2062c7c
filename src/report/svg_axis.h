/*
 * svg_axis — what every chart of `storbench plot` shares (svg_axis.c): a value scale,
 * linear or logarithmic (log when the values span two decades or more), its ticks and
 * axis lines; a metric of a figure (the figure itself or one of its secondary figures)
 * with its unit; and the page around a chart: the <svg> head with its style, the title,
 * the legend and the one-line caption naming machine, target and storbench version.
 * The SVG is plain SVG 1.1 with its fonts named by family, so that librsvg renders the
 * same picture a browser shows.
 */
#ifndef SB_REPORT_SVG_AXIS_H
#define SB_REPORT_SVG_AXIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

/* Values lo..hi onto pixels p0..p1 (p1 < p0 for a vertical axis that grows upwards). */
typedef struct sb_svg_scale {
    double lo, hi;
    bool log;
    double p0, p1;
} sb_svg_scale;

/* The figure itself: --y value (the default). */
#define SB_SVG_METRIC_VALUE "value"

/* A scale over min..max (both finite): logarithmic when allow_log, min > 0 and max / min
 * is 100 or more (then from the decade at or below min to the one at or above max), else
 * linear from 0 (or min when it is negative) to a rounded max. */
void sb_svg_scale_init(sb_svg_scale *s, double min, double max, bool allow_log, double p0,
                       double p1);
/* The pixel of v (clamped to the scale). */
double sb_svg_scale_at(const sb_svg_scale *s, double v);
/* Up to max tick values: decades on a log scale, 1-2-5 steps on a linear one. */
size_t sb_svg_scale_ticks(const sb_svg_scale *s, double *ticks, size_t max);
/* A tick's or a point's label: "0.5", "250", "12k", "3.2M". */
void sb_svg_format_number(char *buf, size_t len, double v);

/* metric of e in r: SB_SVG_METRIC_VALUE (or NULL) is e->mean in r->unit, another name a
 * secondary figure of e. False when e has no such figure or it is not finite. */
bool sb_svg_metric(const sb_result *r, const sb_entry *e, const char *metric, double *v,
                   const char **unit);
/* Does any entry of r have the metric? */
bool sb_svg_result_has_metric(const sb_result *r, const char *metric);
/* The metrics rf's figures have, "value, iops, lat_p99" (for the line refusing another). */
void sb_svg_metric_names(const sb_resultfile *rf, char *buf, size_t len);

/* <svg> of w x h pixels with its style, a white background and the title. */
void sb_svg_begin(FILE *out, int w, int h, const char *title);
/* The caption at y: "<machine> · target <dir> · storbench <version>" of each system (the
 * first three; "+N more"), from its description; cut to one line. Then </svg>. */
void sb_svg_end(FILE *out, const sb_resultfile *rf, int w, int y);
/* A legend of n labels (colours of sb_html_colour) in rows from y across width w; returns
 * the height it took. Drawing with out NULL only measures. */
int sb_svg_legend(FILE *out, const char *const *labels, size_t n, int x, int y, int w);
/* <text> at x, y with class cls and anchor (start, middle, end), s escaped. */
void sb_svg_text(FILE *out, double x, double y, const char *cls, const char *anchor,
                 const char *s);
/* A horizontal value axis at y from scale s (grid lines up to y_top), its ticks and label. */
void sb_svg_axis_h(FILE *out, const sb_svg_scale *s, double y, double y_top, const char *label);
/* A vertical value axis at x from scale s (grid lines across to x_right), ticks and label. */
void sb_svg_axis_v(FILE *out, const sb_svg_scale *s, double x, double x_right, const char *label);

#endif
