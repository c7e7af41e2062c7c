/*
 * io_fio_cli — fio's command-line flags of `storbench io` beyond the job's options and
 * the command's own table in cli/io.c: the trigger (--trigger-file, --trigger-timeout,
 * --trigger: what ends every job early and the command the user gave to run then),
 * --aux-path (where verify_dump's and the verify state files go), --append-terse,
 * --inflate-log (a log stored compressed printed as text: io/log/inflate.h), --profile and
 * its options (fio's built-in job sets: io/options/profile.h), and fio's flags that mean
 * nothing here, each refused with one line that says why (--alloc-size, fio's
 * client/server mode, which storbench does with MPI ranks). Kept apart so that io.c
 * stays the command's flow.
 */
#ifndef SB_CLI_IO_FIO_CLI_H
#define SB_CLI_IO_FIO_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "io/options/options.h"
#include "io/options/profile.h"

typedef struct sb_io_fio_cli {
    char trigger_file[PATH_MAX]; /* --trigger-file: when it appears, it is removed and the trigger fires */
    double trigger_timeout_s;    /* --trigger-timeout: the trigger fires this far into the run */
    char trigger[4096];          /* --trigger: the command run (sh -c) when it fires */
    char aux_path[PATH_MAX];     /* --aux-path: verify_dump's and state files go there */
    bool append_terse;           /* --append-terse: terse besides the formats chosen */
    char inflate_log[PATH_MAX];  /* --inflate-log FILE: print a stored compressed log, run nothing */
    char refused[8];             /* the refused flags' field (never set) */
    sb_io_profile profile;       /* --profile NAME and tiobench's --block, --numruns, --dir, --threads */
} sb_io_fio_cli;

extern const sb_opt sb_io_fio_cli_options[];
extern const size_t sb_io_n_fio_cli_options;

/* The rules between these flags: 0, or -EINVAL with one line in err. ranks: under MPI. */
int sb_io_fio_cli_check(const sb_io_fio_cli *c, bool ranks, char *err, size_t errlen);

/* The trigger: a thread that watches for the file and the time from now. When it fires
 * the jobs stop (sb_io_trigger_fired() turns true: the commands' stop callbacks ask it),
 * then the command runs, as fio's. start returns 0 with nothing to watch, or -errno. */
typedef struct sb_io_trigger sb_io_trigger;
int sb_io_trigger_start(const sb_io_fio_cli *c, sb_io_trigger **out);
bool sb_io_trigger_fired(void);
/* Waits for a running command, ends the thread, frees t (NULL: nothing). */
void sb_io_trigger_stop(sb_io_trigger *t);

#endif
