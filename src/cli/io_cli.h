/*
 * sb_io_cli — the command's own flags of `storbench io`, beside the job's options (io/options)
 * and fio's further flags (io_fio_cli.h): output and formats, help, --parse-only and
 * --section, MPI ranks, the safety flags, progress. The struct the flags fill and their
 * table (io_cli.c), from which cli/io.c builds getopt's array, the usage and --cmdhelp.
 */
#ifndef SB_CLI_IO_CLI_H
#define SB_CLI_IO_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/io_fio_cli.h"
#include "cli/io_status.h"
#include "core/devguard.h"
#include "io/options/jobfile.h"
#include "io/options/options.h"
#include "runner/io_ranks.h"

/* The command's own options, beside the job's (io/options.c): output, help, MPI ranks. */
typedef struct sb_io_cli {
    char format[128];        /* --output-format: a list of io_output.h's formats */
    unsigned formats;        /* ... as a mask */
    char output[PATH_MAX];   /* --output FILE; "" = standard output */
    unsigned terse_version;  /* fio's --terse-version: 3 */
    sb_jobfile_given given;  /* the options before any --name, as given */
    bool quiet;              /* no progress line */
    bool help;
    char cmdhelp[64];        /* --cmdhelp[=NAME|man|md] */
    char enghelp[64];        /* --enghelp[=ENGINE[,OPTION]] */
    bool parse_only;         /* fio's --parse-only: check the jobs, run nothing */
    const char *sections[16]; /* fio's --section NAME, each */
    size_t nsections;
    sb_io_ranks_opts ranks;
    bool readonly;                /* fio's --readonly: no job may write, trim or create */
    sb_devguard_consent consent;  /* --destroy-data-on DEV|FILE, each */
    sb_io_status_opts status;     /* --status-interval, --eta* */
    bool minimal;                 /* fio's --minimal: terse */
    bool showcmd;                 /* fio's --showcmd: the jobs as command-line options */
    unsigned max_jobs;            /* fio's --max-jobs: at most this many threads; 0 = any */
    bool warnings_fatal;          /* fio's --warnings-fatal */
    sb_io_fio_cli fio;            /* fio's further flags: triggers, --aux-path (io_fio_cli.h) */
} sb_io_cli;

extern const sb_opt sb_io_cli_options[];
extern const size_t sb_io_n_cli_options;

#endif
