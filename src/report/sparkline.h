/*
 * sparkline — a result's time series on the terminal: one row per identifier,
 * the figure over time as block characters (U+2581..U+2588) between the
 * row's own minimum and maximum, followed by that range and the p99 latency
 * range. Also what the HTML chart and the text share: which quantity a
 * result's series is drawn in.
 */
#ifndef SB_REPORT_SPARKLINE_H
#define SB_REPORT_SPARKLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"

/* n values as at most cols block characters (UTF-8) into buf: when n > cols, each column
 * is the mean of its share of the values. Equal values draw the middle block. */
void sb_sparkline(char *buf, size_t len, const double *v, size_t n, size_t cols);

/* Whether a result's series is drawn as bandwidth (its unit is a rate of bytes: "MB/s")
 * or as IOPS; the value of point p in that quantity (MB/s = 10^6 bytes/s). */
bool sb_series_is_bw(const sb_result *r);
double sb_series_value(const sb_result *r, const sb_series_point *p);

/* The block "Over time (MB/s per 1 s interval, median run):" and one row per entry of
 * order[0..n) that has a series, the label column as wide as the widest label; nothing
 * when none has one. labels[i] names order[i]. */
void sb_report_sparklines(FILE *out, const sb_result *r, const sb_entry *const *order,
                          const char *const *labels, size_t n, int width);

#endif
