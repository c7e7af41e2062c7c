/*
 * io_ranks — what `storbench io` prints of a run on MPI ranks (runner/io_ranks.h
 * runs it): the text lines of each phase and the JSON object, in
 * cli/io_ranks_print.c; and storbench-json's latency object, there too, which
 * io_output.c's job report uses as well.
 */
#ifndef SB_CLI_IO_RANKS_H
#define SB_CLI_IO_RANKS_H

#include <jansson.h>
#include <stdio.h>

#include "core/histogram.h"
#include "runner/io_ranks.h"

void sb_io_ranks_print(FILE *out, const sb_io_ranks_report *rep);
json_t *sb_io_ranks_json(const sb_io_ranks_report *rep);

/* storbench-json's latency object (samples, min, max, mean, stddev, percentiles). */
json_t *sb_io_lat_json(const sb_histogram *h);

#endif
