/*
 * text — the seed pages' text format (docs/text-format.md, "What `show` writes"):
 * title, description, each system's description, then per result the title
 * and version, option line, "Unit > Higher Is Better", and dotted
 * identifiers with aligned values and '=' bars scaled to the width.
 */
#ifndef SB_REPORT_TEXT_H
#define SB_REPORT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "results/result.h"

/* width: total line width (the longest bar ends at width - 1). */
int sb_report_text(FILE *out, const sb_resultfile *rf, int width);
/* The same; with sparklines, each result that has time series is followed by a row per
 * identifier (report/sparkline.h): no longer a page import reads. */
int sb_report_text_ex(FILE *out, const sb_resultfile *rf, int width, bool sparklines);
/* One result's table only (used by `run` to print figures as they complete). */
int sb_report_text_result(FILE *out, const sb_result *r, int width);
/* Formats a value as the page shows it: sb_format_value() in core/units.h. */
void sb_report_format_value(char *buf, size_t len, double value, int decimals);

#endif
