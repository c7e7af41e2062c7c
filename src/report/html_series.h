/*
 * html_series — the time-series charts of `show --format html` (html.c draws
 * the rest of the page): a result's figure and its p99 latency over time,
 * one line per identifier.
 */
#ifndef SB_REPORT_HTML_SERIES_H
#define SB_REPORT_HTML_SERIES_H

#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

/* The charts of result r, the index-th on the page; nothing when no entry has a series. */
void sb_html_series_charts(FILE *out, const sb_result *r, size_t index);

#endif
