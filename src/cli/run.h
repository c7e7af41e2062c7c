/*
 * run — `storbench run`'s options as a struct (run.c), so that a command that is run
 * with some options fixed (io500: the io500 test, once, its configuration file's
 * values) fills them and calls sb_run_exec instead of making up a command line.
 */
#ifndef SB_CLI_RUN_H
#define SB_CLI_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/select.h"

typedef struct sb_run_opts {
    const char *target, *result, *identifier, *results_dir, *title, *description;
    unsigned runs;  /* 0: the runner's default (SB_DEFAULT_RUNS, or a test's quick count) */
    bool quick, replace, drop, exact, require_all, quiet, json, no_save;
    bool help;      /* --help was given: its usage is printed, nothing to run */
    char *assignments[SB_MAX_ASSIGNMENTS]; /* -o KEY=VALUE, in order: a later one wins */
    size_t n_assign;
    char **names;   /* the tests and suites, in order (sb_run_opts_free frees the array) */
    size_t n_names;
} sb_run_opts;

/* The defaults: $STORBENCH_TARGET or /var/tmp, caches dropped, nothing named. */
void sb_run_opts_init(sb_run_opts *o);
/* Adds run's command line (argv[0] is skipped, as getopt does) to o: its options over
 * what o holds, its tests and suites after o's. SB_EXIT_OK, or SB_EXIT_USAGE after the
 * one line. The strings stay argv's. */
int sb_run_opts_parse(sb_run_opts *o, int argc, char **argv);
/* Runs o's selection as `storbench run` does; its exit code. */
int sb_run_exec(sb_run_opts *o);
void sb_run_opts_free(sb_run_opts *o);

#endif
