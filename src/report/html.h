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

/* sb_html_escape (escape.h) and sb_latency_percentile (html_latency.h) are part of what
 * this header offers; they are defined where the parts that need them can reach them. */
#include "report/escape.h"
#include "report/html_latency.h"
#include "results/result.h"

/* 0, or -EIO when writing failed. */
int sb_report_html(FILE *out, const sb_resultfile *rf);

#endif
