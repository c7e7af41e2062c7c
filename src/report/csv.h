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

#include "report/escape.h" /* sb_csv_field, part of what this header offers */
#include "results/result.h"

/* 0, or -EIO when writing failed. */
int sb_report_csv(FILE *out, const sb_resultfile *rf);

#endif
