/*
 * html_sweep — the charts of a sweep on the HTML page (html_sweep.c): when the page's
 * results of one test vary in their options, a section with the lines `storbench plot`
 * draws by default and the latency percentiles, as inline SVG.
 */
#ifndef SB_REPORT_HTML_SWEEP_H
#define SB_REPORT_HTML_SWEEP_H

#include <stdio.h>

#include "results/result.h"

/* Nothing when rf is no sweep. */
void sb_html_sweep_charts(FILE *out, const sb_resultfile *rf);

#endif
