/*
 * html — `show --format html`: one self-contained HTML page (no network, no
 * external scripts, fonts or styles; a Content-Security-Policy forbids them)
 * with the comparison's title, a system table with one column per
 * identifier where the rows that differ stand out, and per result a
 * horizontal bar chart in inline SVG in the manner of the seed tables
 * (identifier, value, bar, option line, direction, a standard-error whisker,
 * the best value marked) plus latency percentile charts where the result has
 * them. Laid out for phones and for print.
 */
#ifndef SB_REPORT_HTML_H
#define SB_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "results/result.h"

/* 0, or -EIO when writing failed. */
int sb_report_html(FILE *out, const sb_resultfile *rf);

/* Writes s with & < > " ' escaped: safe in element text and in quoted attributes. */
void sb_html_escape(FILE *out, const char *s);

/* Is name a latency percentile, "<prefix>_p<number>" ("lat_p99.9", "insert_lat_p50")?
 * Then true, with the prefix copied to prefix (truncated to len) and the number in *pct. */
bool sb_latency_percentile(const char *name, char *prefix, size_t len, double *pct);

#endif
