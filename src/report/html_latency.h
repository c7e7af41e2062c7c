/*
 * html_latency — the latency percentile charts of `show --format html`
 * (html.c draws the rest of the page).
 */
#ifndef SB_REPORT_HTML_LATENCY_H
#define SB_REPORT_HTML_LATENCY_H

#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

/* One chart per latency series ("lat_p*", "insert_lat_p*" ...) of result r, the index-th
 * result on the page; nothing when it has none. */
void sb_html_latency_charts(FILE *out, const sb_result *r, size_t index);

#endif
