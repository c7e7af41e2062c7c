/*
 * html_latency — the latency percentile charts of `show --format html`
 * (html.c draws the rest of the page).
 */
#ifndef SB_REPORT_HTML_LATENCY_H
#define SB_REPORT_HTML_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

/* One chart per latency series ("lat_p*", "insert_lat_p*" ...) of result r, the index-th
 * result on the page; nothing when it has none. */
void sb_html_latency_charts(FILE *out, const sb_result *r, size_t index);

/* The line style of the j-th identifier of a chart, shared by every line chart of the page:
 * Okabe-Ito colours, then dashes. */
const char *sb_html_colour(size_t j);
const char *sb_html_dash(size_t j); /* "" = solid */
/* <li> of a legend: the j-th identifier's swatch and its label. */
void sb_html_legend_item(FILE *out, size_t j, const char *label);

/* Is name a latency percentile, "<prefix>_p<number>" ("lat_p99.9", "insert_lat_p50")?
 * Then true, with the prefix copied to prefix (truncated to len) and the number in *pct. */
bool sb_latency_percentile(const char *name, char *prefix, size_t len, double *pct);

#endif
