/*
 * run — the scenario driver: for each configuration of a scenario file, build
 * it (loop devices over fresh images, or the checked real devices), describe
 * it, run the tests on it under its identifier, hand the figures to the
 * caller to save, and tear it down whatever happened (docs/scenarios.md).
 * The CLI (cli/scenario.c) parses, and checks everything through plan.h, before
 * calling it.
 */
#ifndef SB_SCENARIO_RUN_H
#define SB_SCENARIO_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/result.h"
#include "scenario/device.h"
#include "scenario/scenario.h"
#include "workloads/workload.h"

typedef struct sb_scn_run_opts {
    const char *images;      /* resolved directory for image files and mount points */
    uint64_t image_size;     /* bytes per image */
    unsigned runs;           /* scheduled runs per test */
    bool exact;              /* exactly `runs` (no run-count rule) */
    bool drop;               /* drop the page cache between runs */
    bool verbose;            /* say each object made and removed, on stdout */
    sb_device *real;         /* checked real devices, or NULL for loop devices over images */
    const sb_config *tests;  /* what runs on each configuration */
    size_t n_tests;
    /* Gets each configuration's figures (under c->identifier): 0, or -errno after printing
     * one line. */
    int (*save)(void *arg, const sb_scn_config *c, const sb_resultfile *fresh);
    void *save_arg;
    /* --vm: each configuration built and measured in a fresh guest (vm.h); NULL otherwise. */
    struct sb_vm *vm;
    const char *file;              /* the scenario file, copied into each guest */
    char *const *guest_args;       /* `scenario run` options for the guest (suites, -o, -n ...) */
    size_t n_guest_args;
} sb_scn_run_opts;

/* Builds, benchmarks, saves and tears down every configuration of s in turn; a failed one is
 * reported and the next goes on, an interruption stops. SB_EXIT_OK, SB_EXIT_RUNTIME or
 * SB_EXIT_INTERRUPTED; *saved and *failed count configurations. */
int sb_scn_run(const sb_scenario *s, const sb_scn_run_opts *o, size_t *saved, size_t *failed);

#endif
