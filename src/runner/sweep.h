/*
 * sweep — the matrix of `storbench sweep` (sweep.c): I/O parameters, each given a list
 * of values (a comma list, "4..256" doubling, "10..90:20" stepping, or both: "1,2,4..256"),
 * expanded into cells. A cell is a configuration of the fio test (workloads/fio.c) with
 * those options set, so that it runs under the runner's rule and is saved as any fio
 * figure is: one result per cell, its parameters the result's recorded options. Beside
 * the expansion: a fio job file of one job as every cell's base, the cells whose
 * combination makes no sense (skipped, with their reason) and which cells a result file
 * holds already (an interrupted sweep run again goes on where it stopped).
 * Refusals are -EINVAL with one line in err, which the CLI prints (exit 2).
 */
#ifndef SB_RUNNER_SWEEP_H
#define SB_RUNNER_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"
#include "workloads/workload.h"

/* The parameters, in the order the matrix nests them (the last varies fastest): the
 * seven a sweep may list, then the four that take one value. */
enum {
    SB_SWEEP_RW, SB_SWEEP_BS, SB_SWEEP_IODEPTH, SB_SWEEP_NUMJOBS, SB_SWEEP_IOENGINE,
    SB_SWEEP_RWMIXREAD, SB_SWEEP_DIRECT,
    SB_SWEEP_SIZE, SB_SWEEP_RUNTIME, SB_SWEEP_RAMP, SB_SWEEP_STARTDELAY,
    SB_SWEEP_N_PARAMS
};
#define SB_SWEEP_N_LISTED (SB_SWEEP_DIRECT + 1)
#define SB_SWEEP_MAX_VALUES 1024 /* values of one parameter */

typedef struct sb_sweep_axis {
    char **values; /* normalised ("4k", "yes"), heap strings */
    size_t n;      /* 0: not given (the fio test's default, or the job file's) */
} sb_sweep_axis;

typedef struct sb_sweep {
    sb_sweep_axis axis[SB_SWEEP_N_PARAMS];
    bool quick; /* the cells at the fio test's --quick scale */
} sb_sweep;

/* The parameter's name as a sweep option ("iodepth", "ramp_time"); -1 for an unknown name. */
const char *sb_sweep_param_name(int param);
int sb_sweep_param_find(const char *name);

void sb_sweep_init(sb_sweep *s, bool quick);
void sb_sweep_free(sb_sweep *s);
/* The values of param from spec ("1,2,4..256"), replacing any it had. A parameter that is
 * not listed takes one value. -EINVAL with one line: an empty list or item, a range that does
 * not end ("4..", "8..2", "0..16"), a range of words, a value listed twice, too many values,
 * a value of the wrong kind ("iodepth: 'x' is not a whole number"). */
int sb_sweep_set(sb_sweep *s, int param, const char *spec, char *err, size_t errlen);
/* A fio job file of one job as the base: each parameter not given yet takes the file's
 * value ([global], then the job's own). An option a cell cannot take (not one of the
 * parameters) is refused with its name. -EINVAL / -errno with one line in err. */
int sb_sweep_jobfile(sb_sweep *s, const char *path, char *err, size_t errlen);

/* The number of cells (the product of the listed parameters' counts); SIZE_MAX when it
 * does not fit. */
size_t sb_sweep_cells(const sb_sweep *s);
/* Each value alone on the fio test's defaults, resolved: what no cell could run is refused
 * now (0, or -EINVAL naming the parameter and value). */
int sb_sweep_check_values(const sb_sweep *s, char *err, size_t errlen);

enum { SB_SWEEP_CELL_OK = 0, SB_SWEEP_CELL_SKIP = 1 };
/* Cell index's configuration, resolved: SB_SWEEP_CELL_OK; SB_SWEEP_CELL_SKIP with the reason
 * in err (rwmixread with a Type that does not mix, or a combination the job's checks refuse).
 * cfg's strings live in s: s must outlive cfg. */
int sb_sweep_cell(const sb_sweep *s, size_t index, sb_config *cfg, char *err, size_t errlen);
/* "iodepth=4 numjobs=2": the cell's values of the parameters with more than one value (all
 * given ones when none has more than one; "defaults" when none is given). */
void sb_sweep_cell_label(const sb_sweep *s, size_t index, char *buf, size_t len);
/* Does rf hold identifier's figure for cfg (the fio test with exactly cfg's options)? */
bool sb_sweep_saved(const sb_resultfile *rf, const sb_config *cfg, const char *identifier);

#endif
