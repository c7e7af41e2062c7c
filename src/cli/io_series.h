/*
 * io_series — `storbench io`'s output of the job over time and of its
 * steady-state check (io_series.c); docs/io-json.md has the keys.
 */
#ifndef SB_CLI_IO_SERIES_H
#define SB_CLI_IO_SERIES_H

#include <jansson.h>
#include <stdio.h>

#include "io/job.h"

/* {"interval_s", "t_s", "iops", "bw_bytes_per_s", "lat_mean_ns", "lat_p99_ns"}. */
json_t *sb_io_series_json(const sb_io_result *r);
/* The steady-state object, or NULL when the job had no criterion. */
json_t *sb_io_steady_json(const sb_io_result *r);
/* The bandwidth per interval: range and a sparkline (nothing without a series). */
void sb_io_print_series(FILE *out, const sb_io_result *r);
/* fio's steadystate line, or SNIA's determination table (nothing without a criterion). */
void sb_io_print_steady(FILE *out, const sb_io_result *r);

#endif
