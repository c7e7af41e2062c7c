/*
 * csv — `show --format csv`: every figure of a result file as one CSV table
 * (RFC 4180 quoting, '\n' line ends) that spreadsheets and scripts can load
 * without knowing the JSON schema. One row per result, identifier and
 * measure: the headline figure (measure "result", with SD, SE and run
 * count) and each secondary figure (IOPS, latency percentiles ...).
 */
#ifndef SB_REPORT_CSV_H
#define SB_REPORT_CSV_H

#include <stdio.h>

#include "results/result.h"

/* 0, or -EIO when writing failed. */
int sb_report_csv(FILE *out, const sb_resultfile *rf);
/* Writes s as one CSV field: quoted (with "" for ") only when it holds a comma, quote, CR,
 * LF or leading/trailing blank. A text starting with '=', '+', '-', '@', TAB or CR, which a
 * spreadsheet would run as a formula, gets a leading "'" (the usual guard, OWASP's), so
 * that an identifier or title from an imported page stays text. Numbers are not fields. */
void sb_csv_field(FILE *out, const char *s);

#endif
