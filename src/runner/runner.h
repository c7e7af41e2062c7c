/*
 * runner — runs one test selection (a workload and its resolved options)
 * the dynamic number of times (core/stats.h), each run in a fresh private
 * directory under the target with caches dropped before it, and adds the
 * figures to a result file under one identifier. It prints each figure as it
 * completes and shows a progress line on a TTY; it never exits.
 */
#ifndef SB_RUNNER_H
#define SB_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/progress.h"
#include "results/result.h"
#include "workloads/workload.h"

#define SB_DEFAULT_RUNS 3
/* --quick: a figure whose relative SD is above SB_QUICK_NOISY_RSD_PCT after its scheduled
 * runs gets more, one at a time up to twice the scheduled count, while this runner's quick
 * selections have spent less than SB_QUICK_BUDGET_S (the quick suite's 3 minutes per
 * target) including the run to come; a figure still noisy after that is said in one line. */
#define SB_QUICK_BUDGET_S 180.0
#define SB_QUICK_NOISY_RSD_PCT 10.0

typedef struct sb_runner {
    const char *target;
    unsigned runs;           /* scheduled runs per test; the rule may add more. 0: the
                                default, SB_DEFAULT_RUNS, or at --quick the workload's
                                quick_runs when it names one */
    bool dynamic;            /* apply the run-count rule (false: exactly `runs`) */
    bool drop_caches;        /* sync + drop_caches before each run (root only) */
    const char *identifier;
    sb_resultfile *out;      /* figures go here, under identifier */
    FILE *log;               /* one line per completed figure; NULL = silent */
    bool warned_no_root;
    double quick_spent_s;    /* seconds spent on --quick selections so far (the budget) */
    /* Seconds of this machine's clock a second of the time the figures are in: 1, or K in
     * the device lab's guest dilated by K (scenario/lab_dilate.h), whose figures are scaled
     * back to the model's time on the host. The 3-s rule, --quick's pooling and its budget
     * are judged in that time, so a dilated run is trusted, pooled and topped up as the
     * same run undilated. */
    unsigned time_dilate;
    sb_progress progress;
} sb_runner;

void sb_runner_init(sb_runner *r, const char *target, const char *identifier, sb_resultfile *out);

enum { SB_RUN_DONE = 0, SB_RUN_SKIPPED = 1 };

/* SB_RUN_DONE; SB_RUN_SKIPPED (the workload returned -ENOTSUP: its one line is in err);
 * -EINTR when interrupted; another negative errno on failure with one line in err. */
int sb_runner_run(sb_runner *r, const sb_config *cfg, char *err, size_t errlen);

/* The "label" of a selection for progress and logs: "fio [Type: Random Write - ...]". */
void sb_runner_label(const sb_config *cfg, char *buf, size_t len);

#endif
